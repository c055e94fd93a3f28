//! How an error leaves the binary: the documented code (lane-app's [`Exit`])
//! and the message. The commands moved into lane-app return
//! [`lane_app::AppError`], whose code `AppError::exit` decides; the others
//! still pair an error with its code here.

use std::fmt;

use lane_app::AppError;
pub use lane_app::Exit;

/// An error on its way out of the binary: what to print and which code to exit with.
#[derive(Debug)]
pub struct CliError {
    /// The exit code this error maps to.
    pub exit: Exit,
    /// The error, with its causes.
    pub error: anyhow::Error,
}

impl CliError {
    /// Wraps an error with the exit code it maps to.
    pub fn new(exit: Exit, error: impl Into<anyhow::Error>) -> Self {
        CliError {
            exit,
            error: error.into(),
        }
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#}", self.error)
    }
}

/// What every subcommand returns.
pub type CliResult = Result<Exit, CliError>;

/// Shorthand for mapping any error to an exit code.
pub trait WithExit<T> {
    /// Maps the error side to a [`CliError`] with the given code.
    fn exit(self, exit: Exit) -> Result<T, CliError>;
}

impl<T, E: Into<anyhow::Error>> WithExit<T> for Result<T, E> {
    fn exit(self, exit: Exit) -> Result<T, CliError> {
        self.map_err(|e| CliError::new(exit, e))
    }
}

impl From<AppError> for CliError {
    fn from(e: AppError) -> Self {
        CliError::new(e.exit(), e)
    }
}
