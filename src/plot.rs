//! A plot of a Grundy sequence, G(n) against n. It is drawn once, as SVG:
//! one dot per n while every n has a pixel column of its own, else one
//! vertical stroke per pixel column from the least to the greatest value of
//! the n that fall in it. The PNG is that same SVG rendered by `resvg`, with
//! a sans-serif font of the system, so the two show the same title, axes
//! and labels.

use std::io::{self, Write};
use std::sync::Arc;

use resvg::tiny_skia;
use resvg::usvg::{self, fontdb};

/// Plot size in pixels.
pub const WIDTH: u32 = 960;
/// Plot height in pixels.
pub const HEIGHT: u32 = 480;
/// Room for the axes and their labels.
const LEFT: u32 = 56;
const RIGHT: u32 = 16;
const TOP: u32 = 40;
const BOTTOM: u32 = 44;
/// The colour of the values.
const INK: &str = "#2060c0";

/// The values reduced to one (least, greatest) pair per pixel column.
pub struct Columns {
    columns: Vec<Option<(u32, u32)>>,
    count: u64,
    max: u32,
}

impl Columns {
    /// Columns for `count` values G(0) … G(count − 1).
    pub fn new(count: u64) -> Columns {
        let width = plot_width().min(count.max(1) as usize);
        Columns { columns: vec![None; width], count: count.max(1), max: 0 }
    }

    /// Adds G(n).
    pub fn push(&mut self, n: u64, value: u32) {
        let width = self.columns.len() as u64;
        let column = ((u128::from(n) * u128::from(width)) / u128::from(self.count)) as usize;
        let last = self.columns.len() - 1;
        let slot = &mut self.columns[column.min(last)];
        *slot = Some(match *slot {
            None => (value, value),
            Some((low, high)) => (low.min(value), high.max(value)),
        });
        self.max = self.max.max(value);
    }

    /// Pixels between neighbouring columns.
    fn spacing(&self) -> f64 {
        plot_width() as f64 / self.columns.len().max(1) as f64
    }

    /// x of the middle of column `c`.
    fn x(&self, c: usize) -> f64 {
        f64::from(LEFT) + (c as f64 + 0.5) * self.spacing()
    }

    /// y of value `v`.
    fn y(&self, v: u32) -> f64 {
        let plot = f64::from(HEIGHT - TOP - BOTTOM);
        f64::from(TOP) + plot - f64::from(v) * plot / f64::from(self.max.max(1))
    }
}

fn plot_width() -> usize {
    (WIDTH - LEFT - RIGHT) as usize
}

/// The plot as an SVG document titled `title`.
pub fn svg(columns: &Columns, title: &str) -> String {
    use std::fmt::Write as _;
    let escape = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    let mut out = String::new();
    // Writing to a String cannot fail.
    let mut line = |text: String| {
        out.push_str(&text);
        out.push('\n');
    };
    line(format!(
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="13">"#
    ));
    line(format!("<title>{}</title>", escape(title)));
    line(format!(r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#));
    line(format!(r#"<text x="{}" y="26" text-anchor="middle" font-size="16">{}</text>"#, WIDTH / 2, escape(title)));
    let (x0, y0, x1, y1) = (LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, TOP);
    line(format!(r#"<path d="M{x0} {y1}V{y0}H{x1}" fill="none" stroke="black"/>"#));
    for value in [0, columns.max] {
        let y = columns.y(value);
        line(format!(r#"<path d="M{} {y}h5" stroke="black"/>"#, x0 - 5));
        line(format!(r#"<text x="{}" y="{}" text-anchor="end">{value}</text>"#, x0 - 8, y + 4.5));
    }
    let last = columns.count - 1;
    line(format!(r#"<text x="{x0}" y="{}" text-anchor="middle">0</text>"#, y0 + 17));
    line(format!(r#"<text x="{x1}" y="{}" text-anchor="end">{last}</text>"#, y0 + 17));
    line(format!(r#"<text x="{}" y="{}" text-anchor="middle" font-style="italic">n</text>"#, (x0 + x1) / 2, y0 + 36));
    let middle = (y0 + y1) / 2;
    line(format!(r#"<text x="18" y="{middle}" text-anchor="middle" transform="rotate(-90 18 {middle})">G(n)</text>"#));
    // Dots where a column holds one value, strokes where it holds several.
    let spacing = columns.spacing();
    // Dots as large as the spacing allows, at least 3.5 pixels across.
    let radius = (spacing / 2.0).clamp(1.75, 2.5);
    let mut strokes = String::new();
    let mut dots = String::new();
    for (c, column) in columns.columns.iter().enumerate() {
        let Some((low, high)) = *column else { continue };
        let x = columns.x(c);
        if low == high {
            let _ = write!(dots, r#"<circle cx="{x:.2}" cy="{:.2}" r="{radius}"/>"#, columns.y(low));
        } else {
            let _ = write!(strokes, "M{x:.2} {:.2}V{:.2}", columns.y(high), columns.y(low));
        }
    }
    if !strokes.is_empty() {
        line(format!(
            r#"<path fill="none" stroke="{INK}" stroke-width="{}" stroke-linecap="round" d="{strokes}"/>"#,
            spacing.clamp(1.5, 3.5)
        ));
    }
    line(format!(r#"<g fill="{INK}">{dots}</g>"#));
    line("</svg>".to_owned());
    out
}

/// Writes the plot as SVG.
pub fn write_svg(out: &mut dyn Write, columns: &Columns, title: &str) -> io::Result<()> {
    out.write_all(svg(columns, title).as_bytes())
}

/// Sans-serif families looked for when the system's configuration names
/// none that is installed, best first.
const SANS_SERIF: [&str; 6] = ["DejaVu Sans", "Liberation Sans", "Noto Sans", "FreeSans", "Arial", "Helvetica"];

/// No sans-serif font was found to draw the PNG's text with.
#[derive(Debug, thiserror::Error)]
#[error(
    "cannot draw the PNG plot's text: no sans-serif font is installed (looked for {}); \
     install one (on Debian: apt-get install fonts-dejavu-core) or plot to .svg",
    SANS_SERIF.join(", ")
)]
pub struct NoFont;

/// Draws PNG plots: the SVG plot rendered with the system's fonts.
pub struct PngRenderer {
    fonts: Arc<fontdb::Database>,
    family: String,
}

impl PngRenderer {
    /// Loads the system's fonts and chooses the sans-serif one, failing
    /// with [`NoFont`] when there is none: a plot without its title and
    /// labels is not drawn.
    pub fn new() -> Result<PngRenderer, NoFont> {
        let mut fonts = fontdb::Database::new();
        fonts.load_system_fonts();
        PngRenderer::with_fonts(fonts)
    }

    /// The renderer for the fonts in `fonts`.
    fn with_fonts(mut fonts: fontdb::Database) -> Result<PngRenderer, NoFont> {
        let has = |fonts: &fontdb::Database, family: fontdb::Family| {
            fonts.query(&fontdb::Query { families: &[family], ..fontdb::Query::default() }).is_some()
        };
        if !has(&fonts, fontdb::Family::SansSerif) {
            let found = SANS_SERIF.into_iter().find(|name| has(&fonts, fontdb::Family::Name(name))).ok_or(NoFont)?;
            fonts.set_sans_serif_family(found);
        }
        let family = fonts.family_name(&fontdb::Family::SansSerif).to_owned();
        Ok(PngRenderer { fonts: Arc::new(fonts), family })
    }

    /// The plot as a PNG file's bytes.
    pub fn png(&self, columns: &Columns, title: &str) -> io::Result<Vec<u8>> {
        let options = usvg::Options {
            fontdb: Arc::clone(&self.fonts),
            font_family: self.family.clone(),
            ..usvg::Options::default()
        };
        let tree = usvg::Tree::from_str(&svg(columns, title), &options).map_err(io::Error::other)?;
        let mut pixmap = tiny_skia::Pixmap::new(WIDTH, HEIGHT).expect("the plot has a size");
        resvg::render(&tree, tiny_skia::Transform::default(), &mut pixmap.as_mut());
        pixmap.encode_png().map_err(io::Error::other)
    }

    /// Writes the plot as PNG.
    pub fn write_png(&self, out: &mut dyn Write, columns: &Columns, title: &str) -> io::Result<()> {
        out.write_all(&self.png(columns, title)?)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sample(count: u64) -> Columns {
        let mut columns = Columns::new(count);
        for n in 0..count {
            columns.push(n, (n % 7) as u32);
        }
        columns
    }

    #[test]
    fn sparse_values_are_dots_and_dense_ones_strokes() {
        let sparse = svg(&sample(100), "t");
        assert_eq!(sparse.matches("<circle").count(), 100);
        assert!(!sparse.contains("stroke-linecap"));
        let dense = svg(&sample(100_000), "t");
        assert!(dense.contains("stroke-linecap") && !dense.contains("<circle"));
    }

    #[test]
    fn no_font_is_a_clear_error() {
        let error = PngRenderer::with_fonts(fontdb::Database::new()).err().expect("no fonts, no renderer");
        let message = error.to_string();
        assert!(message.contains("no sans-serif font") && message.contains("fonts-dejavu-core"), "{message}");
    }
}
