#[derive(Debug, Error)]
pub enum ConfigError {
    // ... existing variants ...
    #[error("unknown log level {0:?}")]
    LogLevel(String),
    // Add a new variant for a worker count of zero
    #[error("workers must be at least 1")]
    NoWorkers,
}

// ... existing code ...
        let defaults = Config::default();
        let workers = raw.workers.unwrap_or(defaults.workers);
        if workers == 0 {
            return Err(ConfigError::NoWorkers);
        }
        Ok(Self {
            listen: raw.listen.unwrap_or(defaults.listen),
            workers,
// ... existing code ...
