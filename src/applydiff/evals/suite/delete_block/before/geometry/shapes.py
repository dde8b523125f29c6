"""Plane shapes with area and perimeter."""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass

__all__ = ["Circle", "LegacyRect", "Rectangle", "Shape", "Square"]


class Shape:
    def area(self) -> float:
        raise NotImplementedError

    def perimeter(self) -> float:
        raise NotImplementedError

    def describe(self) -> str:
        name = type(self).__name__
        return f"{name}: area={self.area():.2f} perimeter={self.perimeter():.2f}"


@dataclass
class Circle(Shape):
    radius: float

    def area(self) -> float:
        return math.pi * self.radius**2

    def perimeter(self) -> float:
        return 2 * math.pi * self.radius


# ---------------------------------------------------------------------------------------------
# Deprecated: kept for callers of the 1.x API, which passed two corners instead of a width and
# a height. Nothing in this repository uses it any more.
# ---------------------------------------------------------------------------------------------


class LegacyRect(Shape):
    def __init__(self, x1: float, y1: float, x2: float, y2: float) -> None:
        warnings.warn("LegacyRect is deprecated; use Rectangle", DeprecationWarning, stacklevel=2)
        self.width = abs(x2 - x1)
        self.height = abs(y2 - y1)

    def area(self) -> float:
        return self.width * self.height

    def perimeter(self) -> float:
        return 2 * (self.width + self.height)

    def to_rectangle(self) -> Rectangle:
        return Rectangle(self.width, self.height)


@dataclass
class Rectangle(Shape):
    width: float
    height: float

    def area(self) -> float:
        return self.width * self.height

    def perimeter(self) -> float:
        return 2 * (self.width + self.height)

    def scaled(self, factor: float) -> Rectangle:
        return Rectangle(self.width * factor, self.height * factor)


class Square(Rectangle):
    def __init__(self, side: float) -> None:
        super().__init__(side, side)

    @property
    def side(self) -> float:
        return self.width
