"""A tiny shopping cart, used by the applydiff examples."""

from dataclasses import dataclass, field


@dataclass
class Item:
    name: str
    price: float
    quantity: int = 1


@dataclass
class Cart:
    items: list[Item] = field(default_factory=list)

    def add(self, item: Item) -> None:
        for existing in self.items:
            if existing.name == item.name:
                existing.quantity += item.quantity
                return
        self.items.append(item)

    def total(self) -> float:
        """Sum of price × quantity over all items."""
        return sum(i.price * i.quantity for i in self.items)
