use std::f64::consts::PI;
use std::fmt;

/// Anything with an area and a perimeter.
pub trait Shape {
    fn area(&self) -> f64;
    fn perimeter(&self) -> f64;

    fn name(&self) -> &'static str {
        "shape"
    }
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Circle {
    pub radius: f64,
}

#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Rectangle {
    pub width: f64,
    pub height: f64,
}

impl Circle {
    pub fn new(radius: f64) -> Self {
        assert!(radius >= 0.0, "radius must not be negative");
        Self { radius }
    }
}

impl Rectangle {
    pub fn new(width: f64, height: f64) -> Self {
        Self { width, height }
    }

    pub fn square(side: f64) -> Self {
        Self::new(side, side)
    }

    pub fn is_square(&self) -> bool {
        (self.width - self.height).abs() < f64::EPSILON
    }
}

impl Shape for Circle {
    fn area(&self) -> f64 {
        PI * self.radius * self.radius
    }

    fn perimeter(&self) -> f64 {
        2.0 * PI * self.radius
    }

    fn name(&self) -> &'static str {
        "circle"
    }
}

impl Shape for Rectangle {
    fn area(&self) -> f64 {
        self.width * self.height
    }

    fn perimeter(&self) -> f64 {
        2.0 * (self.width + self.height)
    }

    fn name(&self) -> &'static str {
        "rectangle"
    }
}

impl fmt::Display for Circle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Circle(r={})", self.radius)
    }
}

impl fmt::Display for Rectangle {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Rectangle({}x{})", self.width, self.height)
    }
}

pub fn total_area(shapes: &[Box<dyn Shape>]) -> f64 {
    shapes.iter().map(|s| s.area()).sum()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn circle_area() {
        let c = Circle::new(1.0);
        assert!((c.area() - PI).abs() < 1e-9);
    }

    #[test]
    fn square_is_square() {
        assert!(Rectangle::square(2.0).is_square());
        assert!(!Rectangle::new(2.0, 3.0).is_square());
    }

    #[test]
    fn total_area_sums() {
        let shapes: Vec<Box<dyn Shape>> = vec![
            Box::new(Rectangle::new(2.0, 3.0)),
            Box::new(Rectangle::square(1.0)),
        ];
        assert_eq!(total_area(&shapes), 7.0);
    }
}
