"""Printable sheet and settlement (PDF export comes with scorekeeper/pdf.py)."""

from __future__ import annotations

from flask import Blueprint

bp = Blueprint("sheets", __name__, url_prefix="/m/<int:match_id>")
