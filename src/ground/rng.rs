//! The deterministic random generator every stage draws from: the
//! resolver's pick among a library's alternatives and every placement
//! engine. One seed gives one sequence on every platform (ChaCha8, whose
//! output is specified, not the standard library's hasher or `thread_rng`).

/// The deterministic random generator every engine draws from.
pub type Rng = rand_chacha::ChaCha8Rng;

/// Creates the generator for a seed.
pub fn rng(seed: u64) -> Rng {
    use rand::SeedableRng;
    Rng::seed_from_u64(seed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use rand::RngExt;

    #[test]
    fn one_seed_gives_one_sequence() {
        let a: Vec<u64> = (0..4)
            .map({
                let mut r = rng(7);
                move |_| r.random::<u64>()
            })
            .collect();
        let b: Vec<u64> = (0..4)
            .map({
                let mut r = rng(7);
                move |_| r.random::<u64>()
            })
            .collect();
        assert_eq!(a, b);
        assert_ne!(
            a,
            (0..4)
                .map({
                    let mut r = rng(8);
                    move |_| r.random::<u64>()
                })
                .collect::<Vec<_>>()
        );
    }
}
