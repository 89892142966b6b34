//! A plot of a Grundy sequence, G(n) against n, as SVG or PNG, drawn by
//! hand: one vertical stroke per pixel column from the least to the
//! greatest value of the n that fall in it (a dot when there is one n).

use std::io::{self, Write};

/// Plot size in pixels.
const WIDTH: usize = 960;
const HEIGHT: usize = 480;
/// Room for the axes and their labels.
const LEFT: usize = 56;
const RIGHT: usize = 16;
const TOP: usize = 36;
const BOTTOM: usize = 40;

/// The values reduced to one (least, greatest) pair per pixel column.
pub struct Columns {
    columns: Vec<Option<(u32, u32)>>,
    count: u64,
    max: u32,
}

impl Columns {
    /// Columns for `count` values G(0) … G(count − 1).
    pub fn new(count: u64) -> Columns {
        let width = (WIDTH - LEFT - RIGHT).min(count.max(1) as usize);
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

    fn plot_width(&self) -> usize {
        WIDTH - LEFT - RIGHT
    }

    /// x pixel of column `c`.
    fn x(&self, c: usize) -> usize {
        LEFT + c * self.plot_width() / self.columns.len().max(1)
    }

    /// y pixel of value `v`.
    fn y(&self, v: u32) -> usize {
        let plot = HEIGHT - TOP - BOTTOM;
        TOP + plot - (v as usize * plot) / (self.max.max(1) as usize)
    }
}

/// Writes the plot as SVG.
pub fn write_svg(out: &mut dyn Write, columns: &Columns, title: &str) -> io::Result<()> {
    let escape = |s: &str| s.replace('&', "&amp;").replace('<', "&lt;").replace('>', "&gt;");
    writeln!(
        out,
        r#"<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" viewBox="0 0 {WIDTH} {HEIGHT}" font-family="sans-serif" font-size="12">"#
    )?;
    writeln!(out, r#"<title>{}</title>"#, escape(title))?;
    writeln!(out, r#"<rect width="{WIDTH}" height="{HEIGHT}" fill="white"/>"#)?;
    writeln!(out, r#"<text x="{}" y="22" text-anchor="middle" font-size="14">{}</text>"#, WIDTH / 2, escape(title))?;
    let (x0, y0, x1, y1) = (LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, TOP);
    writeln!(out, r#"<path d="M{x0} {y1}V{y0}H{x1}" fill="none" stroke="black"/>"#)?;
    for (value, label) in [(0, "0".to_owned()), (columns.max, columns.max.to_string())] {
        let y = columns.y(value);
        writeln!(out, r#"<text x="{}" y="{}" text-anchor="end">{label}</text>"#, x0 - 6, y + 4)?;
    }
    let last = columns.count - 1;
    writeln!(out, r#"<text x="{x0}" y="{}" text-anchor="middle">0</text>"#, y0 + 16)?;
    writeln!(out, r#"<text x="{x1}" y="{}" text-anchor="end">{last}</text>"#, y0 + 16)?;
    writeln!(out, r#"<text x="{}" y="{}" text-anchor="middle">n</text>"#, (x0 + x1) / 2, y0 + 30)?;
    writeln!(
        out,
        r#"<text x="16" y="{}" text-anchor="middle" transform="rotate(-90 16 {})">G(n)</text>"#,
        (y0 + y1) / 2,
        (y0 + y1) / 2
    )?;
    write!(out, r##"<path fill="none" stroke="#2060c0" stroke-width="1.5" stroke-linecap="square" d=""##)?;
    for (c, column) in columns.columns.iter().enumerate() {
        if let Some((low, high)) = column {
            let x = columns.x(c) as f64 + 0.5;
            let (top, bottom) = (columns.y(*high) as f64, columns.y(*low) as f64 + 0.5);
            write!(out, "M{x} {top}V{bottom}")?;
        }
    }
    writeln!(out, r#""/>"#)?;
    writeln!(out, "</svg>")
}

/// Writes the plot as PNG (8-bit grey, uncompressed deflate blocks).
pub fn write_png(out: &mut dyn Write, columns: &Columns) -> io::Result<()> {
    let mut pixels = vec![255u8; WIDTH * HEIGHT];
    let mut set = |x: usize, y: usize, v: u8| {
        if x < WIDTH && y < HEIGHT {
            pixels[y * WIDTH + x] = v;
        }
    };
    let (x0, y0, x1, y1) = (LEFT, HEIGHT - BOTTOM, WIDTH - RIGHT, TOP);
    for y in y1..=y0 {
        set(x0, y, 0);
    }
    for x in x0..=x1 {
        set(x, y0, 0);
    }
    for (c, column) in columns.columns.iter().enumerate() {
        if let Some((low, high)) = column {
            let x = columns.x(c);
            for y in columns.y(*high)..=columns.y(*low) {
                set(x, y, 70);
                set(x + 1, y, 70);
            }
        }
    }
    // Axis labels in a small digit font: 0 and the largest value, 0 and the last n.
    let mut text = |s: &str, right: usize, top: usize| {
        let width = s.len() * 4 * 2;
        let left = right.saturating_sub(width);
        for (i, ch) in s.chars().enumerate() {
            let Some(d) = ch.to_digit(10) else { continue };
            for (row, bits) in DIGITS[d as usize].iter().enumerate() {
                for col in 0..3 {
                    if bits >> (2 - col) & 1 == 1 {
                        for dy in 0..2 {
                            for dx in 0..2 {
                                set(left + i * 8 + col * 2 + dx, top + row * 2 + dy, 0);
                            }
                        }
                    }
                }
            }
        }
    };
    text("0", x0 - 6, columns.y(0) - 5);
    text(&columns.max.to_string(), x0 - 6, columns.y(columns.max) - 5);
    text("0", x0 + 4, y0 + 8);
    text(&(columns.count - 1).to_string(), x1, y0 + 8);
    encode_png(out, WIDTH, HEIGHT, &pixels)
}

/// A 3×5 digit font, one byte per row, high bit on the left.
const DIGITS: [[u8; 5]; 10] = [
    [0b111, 0b101, 0b101, 0b101, 0b111],
    [0b010, 0b110, 0b010, 0b010, 0b111],
    [0b111, 0b001, 0b111, 0b100, 0b111],
    [0b111, 0b001, 0b111, 0b001, 0b111],
    [0b101, 0b101, 0b111, 0b001, 0b001],
    [0b111, 0b100, 0b111, 0b001, 0b111],
    [0b111, 0b100, 0b111, 0b101, 0b111],
    [0b111, 0b001, 0b010, 0b010, 0b010],
    [0b111, 0b101, 0b111, 0b101, 0b111],
    [0b111, 0b101, 0b111, 0b001, 0b111],
];

/// A greyscale PNG: signature, IHDR, one IDAT of zlib "stored" blocks, IEND.
fn encode_png(out: &mut dyn Write, width: usize, height: usize, grey: &[u8]) -> io::Result<()> {
    out.write_all(b"\x89PNG\r\n\x1a\n")?;
    let mut header = Vec::with_capacity(13);
    header.extend_from_slice(&(width as u32).to_be_bytes());
    header.extend_from_slice(&(height as u32).to_be_bytes());
    header.extend_from_slice(&[8, 0, 0, 0, 0]); // 8-bit greyscale, no interlace
    chunk(out, b"IHDR", &header)?;
    // Each row starts with filter byte 0.
    let mut raw = Vec::with_capacity((width + 1) * height);
    for row in grey.chunks(width) {
        raw.push(0);
        raw.extend_from_slice(row);
    }
    let mut zlib = vec![0x78, 0x01];
    let blocks: Vec<&[u8]> = raw.chunks(65_535).collect();
    for (i, block) in blocks.iter().enumerate() {
        zlib.push(u8::from(i + 1 == blocks.len()));
        let len = block.len() as u16;
        zlib.extend_from_slice(&len.to_le_bytes());
        zlib.extend_from_slice(&(!len).to_le_bytes());
        zlib.extend_from_slice(block);
    }
    zlib.extend_from_slice(&adler32(&raw).to_be_bytes());
    chunk(out, b"IDAT", &zlib)?;
    chunk(out, b"IEND", &[])
}

fn chunk(out: &mut dyn Write, kind: &[u8; 4], data: &[u8]) -> io::Result<()> {
    out.write_all(&(data.len() as u32).to_be_bytes())?;
    out.write_all(kind)?;
    out.write_all(data)?;
    let crc = crc32(kind.iter().chain(data));
    out.write_all(&crc.to_be_bytes())
}

fn crc32<'a>(bytes: impl Iterator<Item = &'a u8>) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 { (crc >> 1) ^ 0xEDB8_8320 } else { crc >> 1 };
        }
    }
    !crc
}

fn adler32(bytes: &[u8]) -> u32 {
    let (mut a, mut b) = (1u32, 0u32);
    for chunk in bytes.chunks(5552) {
        for &byte in chunk {
            a += u32::from(byte);
            b += a;
        }
        a %= 65_521;
        b %= 65_521;
    }
    (b << 16) | a
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn checksums_match_known_values() {
        assert_eq!(crc32(b"IEND".iter()), 0xAE42_6082);
        assert_eq!(adler32(b"Wikipedia"), 0x11E6_0398);
    }

    #[test]
    fn png_has_the_signature_size_and_end() {
        let mut columns = Columns::new(100);
        for n in 0..100 {
            columns.push(n, (n % 7) as u32);
        }
        let mut bytes = Vec::new();
        write_png(&mut bytes, &columns).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        assert_eq!(&bytes[12..16], b"IHDR");
        assert_eq!(u32::from_be_bytes(bytes[16..20].try_into().unwrap()), WIDTH as u32);
        assert!(bytes.ends_with(&[0, 0, 0, 0, b'I', b'E', b'N', b'D', 0xAE, 0x42, 0x60, 0x82]));
    }
}
