"""Small helpers the Flask test-client tests share: reading what was stored and shown."""

import json
import re


def stored_hands(client, match_id: str) -> list:
    """The hands as stored, read back through the match-file export."""
    response = client.get(f"/m/{match_id}/match.json")
    assert response.status_code == 200
    return json.loads(response.text)["hands"]


def hand_ids(client, match_id: str) -> list[int]:
    """Database ids of the hands in play, in order, from the match page's edit links."""
    page = client.get(f"/m/{match_id}").text
    return [int(n) for n in re.findall(rf'href="/m/{match_id}/hand/(\d+)"', page)]


def errors(response) -> list[str]:
    """The field errors a form page shows."""
    return re.findall(r'<p class="error"[^>]*>([^<]*)</p>', response.text)
