"""The Flask extensions the app and its views share, made once and bound to the
app in `create_app` (a view module imports them from here, never from the app)."""

from __future__ import annotations

from flask_babel import Babel
from flask_wtf.csrf import CSRFProtect

csrf = CSRFProtect()
babel = Babel()
