impl Circle {
    pub fn new(radius: f64) -> Self {
        assert!(radius >= 0.0, "radius must not be negative");
        Self { radius }
    }

    /// Builds the circle whose circumference is `perimeter`.
    ///
    /// Panics when `perimeter` is negative.
    pub fn from_perimeter(perimeter: f64) -> Self {
        Self::new(perimeter / (2.0 * PI))
    }
}

// ... existing code ...
