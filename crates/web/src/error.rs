//! The API's errors: every one is JSON `{"error": "..."}` with a status that
//! says whose fault it is. Client mistakes are always 4xx.

use axum::Json;
use axum::http::{StatusCode, header};
use axum::response::{IntoResponse, Response};

use crate::store::{StorageError, StoreError};

/// An error answered to an API client.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ApiError {
    /// The request is malformed or out of limits (400).
    #[error("{0}")]
    BadRequest(String),
    /// A seat's token is needed (401).
    #[error("this request needs your seat's token: send `Authorization: Bearer TOKEN`")]
    Unauthorized,
    /// The token does not hold the seat (403).
    #[error("{0}")]
    Forbidden(String),
    /// No such game or route (404).
    #[error("{0}")]
    NotFound(String),
    /// The request came too late: the game moved on, or the seat is taken (409).
    #[error("{0}")]
    Conflict(String),
    /// The request body did not arrive in time (408).
    #[error("{0}")]
    Timeout(String),
    /// The request body is too large (413).
    #[error("{0}")]
    TooLarge(String),
    /// The move breaks the rules (422).
    #[error("{0}")]
    IllegalMove(String),
    /// The position cannot be analysed: no theory applies and it is too
    /// large to search (422).
    #[error("{0}")]
    Unprocessable(String),
    /// The storage failed (503, with `Retry-After`): not the client's fault,
    /// and perhaps passing (a full disk, a locked database).
    #[error("{0}")]
    Storage(String),
    /// A computation failed: a bug of the server (500).
    #[error("{0}")]
    Internal(String),
    /// Too many requests of one kind from one client (429), answered with
    /// `Retry-After`.
    #[error("{message}")]
    TooManyRequests {
        /// What was refused and when to try again.
        message: String,
        /// Whole seconds until a request of this kind is let through.
        retry_after: u64,
    },
    /// Every worker of the compute pool is busy and its queue is full (503),
    /// answered with `Retry-After` (see [`crate::pool`]).
    #[error("{0}")]
    Busy(String),
}

impl ApiError {
    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        match self {
            ApiError::BadRequest(_) => StatusCode::BAD_REQUEST,
            ApiError::Unauthorized => StatusCode::UNAUTHORIZED,
            ApiError::Forbidden(_) => StatusCode::FORBIDDEN,
            ApiError::NotFound(_) => StatusCode::NOT_FOUND,
            ApiError::Conflict(_) => StatusCode::CONFLICT,
            ApiError::Timeout(_) => StatusCode::REQUEST_TIMEOUT,
            ApiError::TooLarge(_) => StatusCode::PAYLOAD_TOO_LARGE,
            ApiError::IllegalMove(_) | ApiError::Unprocessable(_) => StatusCode::UNPROCESSABLE_ENTITY,
            ApiError::Storage(_) | ApiError::Busy(_) => StatusCode::SERVICE_UNAVAILABLE,
            ApiError::TooManyRequests { .. } => StatusCode::TOO_MANY_REQUESTS,
            ApiError::Internal(_) => StatusCode::INTERNAL_SERVER_ERROR,
        }
    }

    /// "No game with id X".
    pub fn no_game(id: &str) -> ApiError {
        ApiError::NotFound(format!(
            "no game with id {id:?} (games expire after {} days unused)",
            crate::limits::EXPIRY_DAYS
        ))
    }
}

impl From<StorageError> for ApiError {
    fn from(e: StorageError) -> ApiError {
        tracing::error!("{e}");
        ApiError::Storage(e.to_string())
    }
}

impl From<StoreError> for ApiError {
    fn from(e: StoreError) -> ApiError {
        match e {
            StoreError::NoGame { id } => ApiError::no_game(&id),
            StoreError::Stale => ApiError::Conflict(e.to_string()),
            StoreError::Damaged { .. } => {
                tracing::error!("{e}");
                ApiError::Storage(e.to_string())
            }
            StoreError::Failed(e) => e.into(),
        }
    }
}

impl From<sqlx::Error> for ApiError {
    fn from(e: sqlx::Error) -> ApiError {
        StorageError::from(e).into()
    }
}

impl ApiError {
    /// Whole seconds a client refused for a storage failure is told to wait
    /// (`Retry-After`).
    pub const STORAGE_RETRY_AFTER: u64 = 5;
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status(), Json(serde_json::json!({ "error": self.to_string() }))).into_response();
        let retry_after = match self {
            ApiError::TooManyRequests { retry_after, .. } => Some(retry_after),
            ApiError::Busy(_) => Some(crate::pool::Pool::RETRY_AFTER),
            ApiError::Storage(_) => Some(ApiError::STORAGE_RETRY_AFTER),
            _ => None,
        };
        if let Some(seconds) = retry_after {
            response.headers_mut().insert(header::RETRY_AFTER, seconds.into());
        }
        response
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn retry_after(error: ApiError) -> Option<String> {
        let response = error.into_response();
        response.headers().get(header::RETRY_AFTER).map(|v| v.to_str().unwrap().to_owned())
    }

    #[test]
    fn every_503_and_429_says_when_to_come_back_and_a_bug_is_500() {
        assert_eq!(retry_after(ApiError::Storage("disk full".into())), Some("5".into()));
        assert_eq!(retry_after(ApiError::Busy("busy".into())), Some("1".into()));
        let limited = ApiError::TooManyRequests { message: "slow down".into(), retry_after: 7 };
        assert_eq!(retry_after(limited), Some("7".into()));
        assert_eq!(retry_after(ApiError::IllegalMove("no".into())), None);
        assert_eq!(ApiError::Internal("a bug".into()).status(), StatusCode::INTERNAL_SERVER_ERROR);
    }
}
