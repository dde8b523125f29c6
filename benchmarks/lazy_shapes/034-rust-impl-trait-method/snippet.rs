impl Shape for Rectangle {
    fn area(&self) -> f64 {
        self.width.abs() * self.height.abs()
    }

    // ... existing methods ...
}
