"""Plane shapes with area and perimeter."""

from __future__ import annotations

import math
from dataclasses import dataclass

__all__ = ["Circle", "Rectangle", "Shape", "Square"]


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
