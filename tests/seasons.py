"""A group at everything the app lets it hold, built through the store's own
write paths (as tests/test_group_bytes.py builds one): the most members, matches
and payments, for the ledger and statistics PDFs (tests/test_pdf_season.py,
benchmarks/bench_pdf.py)."""

from __future__ import annotations

import json
from datetime import date, timedelta
from pathlib import Path

from scorekeeper import db as store
from scorekeeper import groups as g
from scorekeeper.matchfile import from_document

EXAMPLES = Path(__file__).resolve().parent.parent / "examples"
# Forty members (groups.MAX_MEMBERS), each name as long as a phone lets it be.
MEMBERS = [f"Member {n:02} of the Friday club" for n in range(1, g.MAX_MEMBERS + 1)]
CURRENCIES = ("EUR", "GBP", "CHF", None)  # None: played for no stake
FIRST_DAY = date(2024, 1, 5)


def example_documents() -> list[dict]:
    return [
        json.loads(path.read_text(encoding="utf-8")) for path in sorted(EXAMPLES.glob("*.json"))
    ]


def season_match(n: int, examples: list[dict]) -> tuple[dict, list[str]]:
    """The n-th evening (one of the examples, its stake in one of CURRENCIES) and
    the members its players are: a different table of the forty each time."""
    doc = dict(examples[n % len(examples)])
    currency = CURRENCIES[n % len(CURRENCIES)]
    if currency is None or "stake" not in doc:
        doc.pop("stake", None)
    else:
        doc["stake"] = {**doc["stake"], "currency": currency}
    doc["played"] = (FIRST_DAY + timedelta(days=n)).isoformat()
    doc["title"] = f"Evening {n + 1}"
    seats = len(doc["players"])
    members = [MEMBERS[(n * 7 + seat * 11) % len(MEMBERS)] for seat in range(seats)]
    return doc, members


def a_full_season(
    db, matches: int = g.MAX_GROUP_MATCHES, payments: int = g.MAX_GROUP_PAYMENTS
) -> str:
    """A group of MAX_MEMBERS members, `matches` evenings and `payments` payments
    (each in a currency of its own among CURRENCIES): its id."""
    made = g.create_group(db, "The Friday club", MEMBERS)
    ids = {m.name: m.id for m in made.state.members}
    examples = example_documents()
    joined = []
    for n in range(matches):
        doc, members = season_match(n, examples)
        started = store.create_match(db, from_document(doc))
        # A stored match counts as played on the day it was started.
        db.execute(
            "update matches set created = ? where id = ?",
            [f"{doc['played']}T20:00:00+00:00", started.match_id],
        )
        mapping = {player: ids[m] for player, m in zip(doc["players"], members, strict=True)}
        joined.append({"match": started.match_id, "mapping": mapping})
    db.conn.commit()
    cmd = g.GroupCommand(g.ADD_MATCHES, {"matches": joined}, None, None, "Tom's phone")
    g.apply_group(db, made.group_id, cmd)
    if payments:
        paid = [
            {
                "payer": ids[MEMBERS[i % len(MEMBERS)]],
                "payee": ids[MEMBERS[(i + 1) % len(MEMBERS)]],
                "amount": "2.50",
                "currency": CURRENCIES[i % 3],
                "date": (FIRST_DAY + timedelta(days=i % matches)).isoformat(),
                "by": "Tom's phone",
            }
            for i in range(payments)
        ]
        cmd = g.GroupCommand(g.PAY, {"payments": paid}, None, None, "Tom's phone")
        g.apply_group(db, made.group_id, cmd)
    return made.group_id
