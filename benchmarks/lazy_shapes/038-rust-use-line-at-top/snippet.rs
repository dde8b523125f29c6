use tracing::warn;
// ... existing code ...
    pub fn upstream(&self, name: &str) -> Option<&str> {
        let found = self.upstreams.get(name).map(String::as_str);
        if found.is_none() {
            warn!(upstream = name, "no upstream configured");
        }
        found
    }
}
