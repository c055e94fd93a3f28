//! robustness
