/// The longest piece of typed text an error message repeats.
pub const EXCERPT_CHARS: usize = 24;

/// `text` as an error message repeats it: whole when short, else its first
/// [`EXCERPT_CHARS`] characters and `…`, so that a message stays one line
/// whatever was typed.
///
/// ```
/// use bouton_rules::excerpt;
///
/// assert_eq!(excerpt("3x"), "3x");
/// assert_eq!(excerpt(&"9".repeat(10_000)), format!("{}…", "9".repeat(24)));
/// ```
pub fn excerpt(text: &str) -> String {
    let mut chars = text.chars();
    let head: String = chars.by_ref().take(EXCERPT_CHARS).collect();
    if chars.next().is_some() { format!("{head}…") } else { head }
}
