use std::collections::HashMap;
use std::fs;
use std::path::{Path, PathBuf};

use serde::Deserialize;
use thiserror::Error;

#[derive(Debug, Error)]
pub enum ConfigError {
    #[error("could not read {path}: {source}")]
    Io {
        path: PathBuf,
        #[source]
        source: std::io::Error,
    },
    #[error("invalid config: {0}")]
    Parse(#[from] toml::de::Error),
    #[error("unknown log level {0:?}")]
    LogLevel(String),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum LogLevel {
    Error,
    Warn,
    Info,
    Debug,
}

#[derive(Debug, Deserialize)]
struct RawConfig {
    listen: Option<String>,
    workers: Option<usize>,
    log_level: Option<String>,
    #[serde(default)]
    upstreams: HashMap<String, String>,
}

#[derive(Debug, Clone)]
pub struct Config {
    pub listen: String,
    pub workers: usize,
    pub log_level: LogLevel,
    pub upstreams: HashMap<String, String>,
}

impl Default for Config {
    fn default() -> Self {
        Self {
            listen: "127.0.0.1:8080".to_string(),
            workers: 4,
            log_level: LogLevel::Info,
            upstreams: HashMap::new(),
        }
    }
}

impl LogLevel {
    fn parse(value: &str) -> Result<Self, ConfigError> {
        match value.to_ascii_lowercase().as_str() {
            "error" => Ok(LogLevel::Error),
            "warn" | "warning" => Ok(LogLevel::Warn),
            "info" => Ok(LogLevel::Info),
            "debug" => Ok(LogLevel::Debug),
            other => Err(ConfigError::LogLevel(other.to_string())),
        }
    }
}

impl Config {
    pub fn load(path: &Path) -> Result<Self, ConfigError> {
        let text = fs::read_to_string(path).map_err(|source| ConfigError::Io {
            path: path.to_path_buf(),
            source,
        })?;
        Self::from_toml(&text)
    }

    pub fn from_toml(text: &str) -> Result<Self, ConfigError> {
        let raw: RawConfig = toml::from_str(text)?;
        let defaults = Config::default();
        Ok(Self {
            listen: raw.listen.unwrap_or(defaults.listen),
            workers: raw.workers.unwrap_or(defaults.workers),
            log_level: match raw.log_level {
                Some(level) => LogLevel::parse(&level)?,
                None => defaults.log_level,
            },
            upstreams: raw.upstreams,
        })
    }

    pub fn upstream(&self, name: &str) -> Option<&str> {
        self.upstreams.get(name).map(String::as_str)
    }
}
