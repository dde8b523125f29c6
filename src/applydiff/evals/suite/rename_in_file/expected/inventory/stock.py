"""Reorder planning: how much of each item to buy, and when."""

from __future__ import annotations

import math
from dataclasses import dataclass


@dataclass
class Item:
    sku: str
    on_hand: int
    daily_demand: float
    lead_time_days: int
    pack_size: int = 1


SAFETY_DAYS = 3


def reorder_point(item: Item) -> float:
    return item.daily_demand * (item.lead_time_days + SAFETY_DAYS)


def reorder_quantity(item: Item, horizon_days: int = 30) -> int:
    needed = item.daily_demand * horizon_days + reorder_point(item) - item.on_hand
    if needed <= 0:
        return 0
    return math.ceil(needed / item.pack_size) * item.pack_size


def needs_reorder(item: Item) -> bool:
    return item.on_hand <= reorder_point(item)


def plan_reorders(items: list[Item], horizon_days: int = 30) -> dict[str, int]:
    plan = {}
    for item in items:
        if needs_reorder(item):
            qty = reorder_quantity(item, horizon_days)
            if qty:
                plan[item.sku] = qty
    return plan


def reorder_cost(items: list[Item], prices: dict[str, float]) -> float:
    return sum(prices[item.sku] * reorder_quantity(item) for item in items if needs_reorder(item))


STRATEGIES = {
    "standard": reorder_quantity,
    "weekly": lambda item: reorder_quantity(item, horizon_days=7),
}
