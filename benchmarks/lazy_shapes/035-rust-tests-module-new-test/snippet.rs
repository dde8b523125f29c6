#[cfg(test)]
mod tests {
    use super::*;

    // ... existing tests ...

    #[test]
    fn circle_perimeter() {
        let c = Circle::new(2.0);
        assert!((c.perimeter() - 4.0 * PI).abs() < 1e-9);
    }
}
