//! An exhaustive game-tree search written here, independently of the
//! library's move generation: each rule set's moves are written again from
//! its definition, positions are kept in a canonical form, and values are
//! the mex of the options' values (terminal positions worth 0 in normal
//! play, 1 in misère play).

#![allow(dead_code)]

use std::collections::HashMap;
use std::hash::Hash;

/// A rule set as the oracle sees it.
pub trait Tree {
    /// A canonical position.
    type Pos: Clone + Hash + Eq + std::fmt::Debug;
    /// Every position one move away, canonical.
    fn children(&self, p: &Self::Pos) -> Vec<Self::Pos>;
}

/// Memoised values of one rule set under one convention.
pub struct Oracle<T: Tree> {
    pub tree: T,
    misere: bool,
    memo: HashMap<T::Pos, u32>,
}

impl<T: Tree> Oracle<T> {
    pub fn new(tree: T, misere: bool) -> Oracle<T> {
        Oracle { tree, misere, memo: HashMap::new() }
    }

    /// Normal play: the Grundy value. Misère: the misère nim-value.
    pub fn value(&mut self, p: &T::Pos) -> u32 {
        if let Some(&v) = self.memo.get(p) {
            return v;
        }
        let children = self.tree.children(p);
        let v = if children.is_empty() {
            u32::from(self.misere)
        } else {
            let values: Vec<u32> = children.iter().map(|c| self.value(c)).collect();
            (0..).find(|x| !values.contains(x)).unwrap()
        };
        self.memo.insert(p.clone(), v);
        v
    }

    /// The children worth 0: where the winning moves lead.
    pub fn winning_children(&mut self, p: &T::Pos) -> Vec<T::Pos> {
        let mut wins: Vec<T::Pos> = self.tree.children(p).into_iter().filter(|c| self.value(c) == 0).collect();
        wins.dedup();
        wins
    }
}

fn sorted(mut v: Vec<u64>) -> Vec<u64> {
    v.retain(|&x| x > 0);
    v.sort_unstable();
    v
}

/// A take-and-break code with digits written out far enough.
pub struct Code {
    /// `digits[k]` for k up to the largest heap.
    pub digits: Vec<u8>,
    pub unequal: bool,
}

impl Code {
    /// From digits and a digit repeated after them (0 for none), written
    /// out up to heaps of `reach`.
    pub fn new(digits: &[u8], tail: u8, unequal: bool, reach: usize) -> Code {
        let mut all = digits.to_vec();
        while all.len() <= reach {
            all.push(tail);
        }
        Code { digits: all, unequal }
    }

    /// The heaps one heap of `n` can become.
    pub fn heap_children(&self, n: u64) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for k in 0..=n {
            let d = self.digits[k as usize];
            let rest = n - k;
            if d & 1 != 0 && rest == 0 {
                out.push(vec![]);
            }
            if d & 2 != 0 && rest > 0 && k > 0 {
                out.push(vec![rest]);
            }
            if d & 4 != 0 {
                for a in 1..rest {
                    let b = rest - a;
                    if a <= b && !(self.unequal && a == b) {
                        out.push(vec![a, b]);
                    }
                }
            }
        }
        out
    }
}

impl Tree for Code {
    type Pos = Vec<u64>;
    fn children(&self, p: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for (i, &n) in p.iter().enumerate() {
            for parts in self.heap_children(n) {
                let mut next = p.clone();
                next.remove(i);
                next.extend(parts);
                out.push(sorted(next));
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

/// Moore's Nim_k.
pub struct Moore(pub usize);

impl Tree for Moore {
    type Pos = Vec<u64>;
    fn children(&self, p: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        // Every vector of amounts (0 to the heap) touching 1 to k heaps.
        let mut amounts = vec![0u64; p.len()];
        loop {
            let mut i = 0;
            loop {
                if i == p.len() {
                    out.sort();
                    out.dedup();
                    return out;
                }
                if amounts[i] < p[i] {
                    amounts[i] += 1;
                    break;
                }
                amounts[i] = 0;
                i += 1;
            }
            let touched = amounts.iter().filter(|&&a| a > 0).count();
            if (1..=self.0).contains(&touched) {
                out.push(sorted(p.iter().zip(&amounts).map(|(h, a)| h - a).collect()));
            }
        }
    }
}

/// A sum of Wythoff pairs, each (smaller, larger).
pub struct WythoffSum;

impl Tree for WythoffSum {
    type Pos = Vec<(u64, u64)>;
    fn children(&self, p: &Vec<(u64, u64)>) -> Vec<Vec<(u64, u64)>> {
        let mut out = Vec::new();
        for (i, &(a, b)) in p.iter().enumerate() {
            let mut replace = |x: u64, y: u64| {
                let mut next = p.clone();
                next[i] = (x.min(y), x.max(y));
                next.retain(|&q| q != (0, 0));
                next.sort_unstable();
                out.push(next);
            };
            for t in 1..=a {
                replace(a - t, b);
            }
            for t in 1..=b {
                replace(a, b - t);
            }
            for t in 1..=a.min(b) {
                replace(a - t, b - t);
            }
        }
        out.sort();
        out.dedup();
        out
    }
}

/// Staircase Nim: coins on steps 1, 2, …
pub struct Stair;

impl Tree for Stair {
    type Pos = Vec<u64>;
    fn children(&self, p: &Vec<u64>) -> Vec<Vec<u64>> {
        let mut out = Vec::new();
        for i in 0..p.len() {
            for c in 1..=p[i] {
                let mut next = p.clone();
                next[i] -= c;
                if i > 0 {
                    next[i - 1] += c;
                }
                while next.last() == Some(&0) {
                    next.pop();
                }
                out.push(next);
            }
        }
        out
    }
}

/// Fibonacci Nim: (heap, most the next move may take).
pub struct Fib;

impl Tree for Fib {
    type Pos = (u64, u64);
    fn children(&self, &(n, limit): &(u64, u64)) -> Vec<(u64, u64)> {
        (1..=limit.min(n)).map(|t| (n - t, (2 * t).min(n - t))).collect()
    }
}
