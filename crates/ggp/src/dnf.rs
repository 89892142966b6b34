//! Removing `or` from rule bodies: a body with disjunctions becomes several
//! bodies without (its disjunctive normal form). `(not (or a b))` becomes
//! `(not a) (not b)` and `(not (not a))` becomes `a`.

use crate::game::Literal;

/// The most bodies one rule may expand into.
pub(crate) const MAX_BODIES: usize = 4096;

/// A literal without `or`, as the reasoner sees it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub(crate) enum Flat {
    Pos(crate::game::Ast),
    Neg(crate::game::Ast),
    Distinct(crate::game::Ast, crate::game::Ast),
    /// `(not (distinct a b))`: the two terms are equal.
    Same(crate::game::Ast, crate::game::Ast),
}

/// The bodies equivalent to `body` taken as a conjunction, or `None` when
/// there would be more than [`MAX_BODIES`].
pub(crate) fn expand(body: &[Literal]) -> Option<Vec<Vec<Flat>>> {
    let mut bodies: Vec<Vec<Flat>> = vec![Vec::new()];
    for literal in body {
        let alternatives = alternatives(literal, false)?;
        if alternatives.len() == 1 {
            for b in &mut bodies {
                b.extend(alternatives[0].iter().cloned());
            }
            continue;
        }
        if bodies.len().saturating_mul(alternatives.len()) > MAX_BODIES {
            return None;
        }
        let mut next = Vec::with_capacity(bodies.len() * alternatives.len());
        for b in &bodies {
            for alt in &alternatives {
                let mut nb = b.clone();
                nb.extend(alt.iter().cloned());
                next.push(nb);
            }
        }
        bodies = next;
    }
    Some(bodies)
}

/// The alternatives (each a conjunction) that `literal` (negated when
/// `negated`) stands for.
fn alternatives(literal: &Literal, negated: bool) -> Option<Vec<Vec<Flat>>> {
    Some(match (literal, negated) {
        (Literal::Pos(a), false) => vec![vec![Flat::Pos(a.clone())]],
        (Literal::Pos(a), true) => vec![vec![Flat::Neg(a.clone())]],
        (Literal::Distinct(a, b), false) => vec![vec![Flat::Distinct(a.clone(), b.clone())]],
        (Literal::Distinct(a, b), true) => vec![vec![Flat::Same(a.clone(), b.clone())]],
        (Literal::Not(inner), _) => alternatives(inner, !negated)?,
        (Literal::Or(parts), false) => {
            let mut all = Vec::new();
            for p in parts {
                all.extend(alternatives(p, false)?);
                if all.len() > MAX_BODIES {
                    return None;
                }
            }
            all
        }
        // not (a or b) = (not a) and (not b): a conjunction of alternatives.
        (Literal::Or(parts), true) => {
            expand(&parts.iter().map(|p| Literal::Not(Box::new(p.clone()))).collect::<Vec<_>>())?
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Game;

    fn bodies(text: &str) -> Vec<Vec<Flat>> {
        let game = Game::parse(text).unwrap();
        expand(&game.rules[0].body).unwrap()
    }

    #[test]
    fn or_multiplies_bodies() {
        let b = bodies("(<= p (true a) (or (true b) (true c)) (or (true d) (true e) (true f)))");
        assert_eq!(b.len(), 6);
        assert!(b.iter().all(|body| body.len() == 3));
    }

    #[test]
    fn negated_or_is_a_conjunction() {
        let b = bodies("(<= p (not (or (true b) (distinct x y))))");
        assert_eq!(b.len(), 1);
        assert!(matches!(b[0][..], [Flat::Neg(_), Flat::Same(..)]));
    }

    #[test]
    fn too_many_bodies_is_refused() {
        let or = "(or (true a) (true b) (true c) (true d))";
        let text = format!("(<= p {})", [or; 7].join(" "));
        let game = Game::parse(&text).unwrap();
        assert!(expand(&game.rules[0].body).is_none());
    }
}
