import math

from geometry import Circle, Rectangle, Square


def test_circle():
    c = Circle(1.0)
    assert math.isclose(c.area(), math.pi)
    assert math.isclose(c.perimeter(), 2 * math.pi)


def test_rectangle_and_square():
    assert Rectangle(2, 3).area() == 6
    assert Square(2).perimeter() == 8
    assert Square(2).scaled(1.5).area() == 9


def test_describe():
    assert Rectangle(1, 2).describe() == "Rectangle: area=2.00 perimeter=6.00"
