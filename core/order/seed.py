"""The seed order's reference payload as data and as text: no model, so no LangGraph import.

The Validate page paints its editor with this text before Pydantic and LangGraph are loaded.
"""

from __future__ import annotations

from typing import Any

from core.jsontext.write import to_text

__all__ = ["SEED_PAYLOAD", "SEED_TEXT"]

SEED_PAYLOAD: dict[str, Any] = {
    "user_id": "550e8400-e29b-41d4-a716-446655440000",
    "amount": 99,
    "items": [{"sku": "SKU-01", "qty": 2, "unit_price": 49.5}],
    "messages": [{"type": "human", "content": "Order, please"}],
}
SEED_TEXT = to_text(SEED_PAYLOAD)
