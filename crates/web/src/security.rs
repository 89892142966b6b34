//! Security headers on every answer: the page, its assets, the API, errors
//! and 404s alike. The answers hyper gives itself, to a request it could not
//! parse, get them too: [`crate::connections`] writes those as the server's.
//!
//! The Content-Security-Policy lets the page run only its own scripts and
//! styles (no inline script, no inline `style` attribute, no event-handler
//! attribute: the page's modules set styles through the CSSOM), talk only to
//! its own server, and never be framed (`frame-ancestors 'none'`, and
//! `X-Frame-Options: DENY` for older browsers). `nosniff` keeps a browser
//! from reading a JSON answer as a script, and `no-referrer` keeps a game's
//! address (which lets anyone watch or join it) from leaking to other sites.

use axum::Router;
use axum::http::{HeaderName, HeaderValue};
use tower_http::set_header::SetResponseHeaderLayer;

/// The page's Content-Security-Policy. `data:` images are the page's icon.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
     img-src 'self' data:; connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; \
     frame-ancestors 'none'";

/// Every header set on every answer, with its value.
///
/// ```
/// let csp = bouton_web::security::HEADERS.iter().find(|(name, _)| *name == "content-security-policy");
/// assert!(csp.unwrap().1.contains("frame-ancestors 'none'"));
/// ```
pub const HEADERS: [(&str, &str); 4] = [
    ("content-security-policy", CONTENT_SECURITY_POLICY),
    ("x-content-type-options", "nosniff"),
    ("referrer-policy", "no-referrer"),
    ("x-frame-options", "DENY"),
];

/// `router` with [`HEADERS`] on every answer it gives, unless a handler set
/// one of them itself.
pub(crate) fn with_headers<S: Clone + Send + Sync + 'static>(router: Router<S>) -> Router<S> {
    HEADERS.into_iter().fold(router, |router, (name, value)| {
        let (name, value) = (HeaderName::from_static(name), HeaderValue::from_static(value));
        router.layer(SetResponseHeaderLayer::if_not_present(name, value))
    })
}
