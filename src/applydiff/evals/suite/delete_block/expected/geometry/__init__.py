"""Plane geometry for the floor-plan editor."""

from .shapes import Circle, Rectangle, Shape, Square

__all__ = ["Circle", "Rectangle", "Shape", "Square"]
