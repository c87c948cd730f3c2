"""JSON Schemas shipped with the package, loaded once."""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any

RECORDS_1_0 = "records-1.0.schema.json"


@cache
def load_schema(name: str = RECORDS_1_0) -> dict[str, Any]:
    return json.loads(resources.files(__name__).joinpath(name).read_text(encoding="utf-8"))
