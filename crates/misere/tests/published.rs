//! Published quotients and theorems about them, reproduced: misère Nim's
//! quotients, the unique quotient of order 8 (the quotient of 0.75), and the
//! structure theorems every misère quotient obeys.

use bouton_misere::{Element, HeapGame, MisereQuotient, SolveOptions, Word, solve};

fn quotient(code: &str, upto: u64) -> MisereQuotient {
    let game: HeapGame = code.parse().expect("a code");
    solve(&game, &SolveOptions::upto(upto)).unwrap_or_else(|e| panic!("{code}: {e}"))
}

/// Whether `q` is isomorphic, as a bipartite monoid, to the monoid with
/// these `words` as its elements (in generators a, b, …), in which
/// `relations` hold and whose P-portion is `p`: some choice of generators
/// in `q` satisfies the relations, makes the words distinct and every
/// element, and sends `p` onto the P-portion.
fn isomorphic(
    q: &MisereQuotient,
    generators: usize,
    relations: &[(&[u32], &[u32])],
    words: &[&[u32]],
    p: &[&[u32]],
) -> bool {
    let m = q.monoid();
    if m.order() != words.len() {
        return false;
    }
    let elements: Vec<Element> = m.elements().collect();
    let eval = |choice: &[Element], word: &[u32]| {
        word.iter().enumerate().fold(m.identity(), |acc, (i, &e)| (0..e).fold(acc, |acc, _| m.multiply(acc, choice[i])))
    };
    let mut choice = vec![Element(0); generators];
    let total = elements.len().pow(generators as u32);
    (0..total).any(|mut k| {
        for slot in choice.iter_mut() {
            *slot = elements[k % elements.len()];
            k /= elements.len();
        }
        if !relations.iter().all(|(l, r)| eval(&choice, l) == eval(&choice, r)) {
            return false;
        }
        let mut images: Vec<Element> = words.iter().map(|w| eval(&choice, w)).collect();
        let p_images: Vec<Element> = p.iter().map(|w| eval(&choice, w)).collect();
        let mut p_actual = q.p_portion();
        p_actual.sort();
        let mut p_sorted = p_images.clone();
        p_sorted.sort();
        images.sort();
        images.dedup();
        images.len() == words.len() && p_sorted == p_actual
    })
}

/// T₂ = ⟨a, b | a² = 1, b³ = b⟩, P = {a, b²}: misère Nim with heaps 1 to 3.
pub(crate) fn is_t2(q: &MisereQuotient) -> bool {
    isomorphic(
        q,
        2,
        &[(&[2, 0], &[0, 0]), (&[0, 3], &[0, 1])],
        &[&[0, 0], &[1, 0], &[0, 1], &[1, 1], &[0, 2], &[1, 2]],
        &[&[1, 0], &[0, 2]],
    )
}

#[test]
fn misere_nim_quotients_have_order_2_to_the_k_plus_2() {
    // Heaps below 2^k: order 2^k + 2, with P = {a, b²}-like, two elements.
    for (upto, order) in [(1, 2), (3, 6), (7, 10), (15, 18)] {
        let q = quotient("0.3…", upto);
        assert_eq!(q.order(), order, "misère Nim, heaps up to {upto}");
        assert_eq!(q.p_portion().len(), if upto == 1 { 1 } else { 2 });
    }
    assert!(is_t2(&quotient("0.3…", 3)));
}

#[test]
fn tame_games_have_misere_nims_quotients() {
    for code in ["0.31", "0.52"] {
        let q = quotient(code, 300);
        assert!(is_t2(&q), "{code}: T₂");
    }
}

#[test]
fn octal_0_75_has_the_unique_quotient_of_order_8() {
    // R₈ = ⟨a, b, c | a² = 1, b³ = b, bc = ab, c² = b²⟩, P = {a, b²}.
    let q = quotient("0.75", 300);
    assert_eq!(q.order(), 8);
    assert_eq!(q.p_portion().len(), 2);
    assert_eq!(q.monoid().idempotents().len(), 2);
    let words: [&[u32]; 8] =
        [&[0, 0, 0], &[1, 0, 0], &[0, 1, 0], &[1, 1, 0], &[0, 2, 0], &[1, 2, 0], &[0, 0, 1], &[1, 0, 1]];
    assert!(isomorphic(
        &q,
        3,
        &[(&[2, 0, 0], &[0, 0, 0]), (&[0, 3, 0], &[0, 1, 0]), (&[0, 1, 1], &[1, 1, 0]), (&[0, 0, 2], &[0, 2, 0])],
        &words,
        &[&[1, 0, 0], &[0, 2, 0]],
    ));
    let period = q.pretending().period().expect("proved");
    assert_eq!(period.period, 2);
}

#[test]
fn every_quotient_has_even_order_and_two_p_elements_force_2n_plus_2_or_4() {
    // Plambeck and Siegel: a misère quotient has even order; Siegel: with
    // |P| = 2 the order is 2^n + 2 or 2^n + 4.
    for code in ["0.75", "0.31", "0.34", "0.52", "0.53", "0.71", "0.72", "0.77"] {
        let q = quotient(code, 300);
        assert_eq!(q.order() % 2, 0, "{code}");
        if q.p_portion().len() == 2 {
            let o = q.order();
            assert!((1..20).any(|n| o == (1 << n) + 2 || o == (1 << n) + 4), "{code}: order {o}");
        }
    }
}

#[test]
fn presentations_define_the_monoid() {
    for code in ["0.75", "0.34", "0.72"] {
        let q = quotient(code, 300);
        let m = q.monoid();
        for relation in m.relations() {
            assert_eq!(m.evaluate(&relation.lhs), m.evaluate(&relation.rhs), "{code}: {relation}");
            assert_ne!(relation.lhs, relation.rhs);
        }
        // Every element's normal form evaluates to it.
        for x in m.elements() {
            assert_eq!(m.evaluate(m.normal_form(x).expect("an element")), x);
        }
        let _ = Word::new(vec![]);
    }
}

#[test]
fn kayles_quotient_as_bouton_computes_it() {
    // bouton's own figures (see the README for the published ones).
    let q = quotient("0.77", 300);
    assert_eq!(q.order(), 40);
    assert_eq!(q.p_portion().len(), 9);
    assert_eq!(q.monoid().idempotents().len(), 5);
    let period = q.pretending().period().expect("proved");
    assert_eq!((period.preperiod, period.period), (71, 12));
}
