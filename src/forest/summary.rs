//! What `agkit info` says about a forest: spacing, randomness, layers.

use super::Forest;
use serde::Serialize;
use std::collections::BTreeMap;

/// The summary of one forest (`agkit info --format json X.for`).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Summary {
    /// Always `for`.
    pub format: &'static str,
    /// The header's version.
    pub version: u32,
    /// Metres between trees, across and along.
    pub spacing: [f64; 2],
    /// Metres a tree may move from its place.
    pub random: [f64; 2],
    /// Trees in the table (drawn or not).
    pub trees: usize,
    /// The layers with trees X-Plane draws.
    pub layers: Vec<LayerSummary>,
    /// True when trees have X-Plane 12 3-D models.
    pub has_3d: bool,
    /// Surfaces no tree is planted on.
    pub skip_surfaces: Vec<String>,
    /// Texture paths by role.
    pub textures: BTreeMap<String, String>,
    /// Errors found.
    pub errors: usize,
    /// Warnings found.
    pub warnings: usize,
}

/// One layer.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct LayerSummary {
    /// The layer number.
    pub layer: u32,
    /// Its trees.
    pub trees: usize,
    /// The sum of its trees' percentages.
    pub percentage: f64,
    /// Its lowest and highest tree, metres.
    pub height: Option<[f64; 2]>,
}

impl Summary {
    /// The summary of `forest`, with the numbers of errors and warnings
    /// found reading it.
    pub fn of(forest: &Forest, errors: usize, warnings: usize) -> Summary {
        Summary {
            format: "for",
            version: forest.version,
            spacing: forest.spacing,
            random: forest.random,
            trees: forest.trees.len(),
            layers: forest
                .layers()
                .into_iter()
                .map(|n| {
                    let trees = forest.layer(n);
                    LayerSummary {
                        layer: n,
                        trees: trees.len(),
                        percentage: trees.iter().map(|t| t.percentage).sum(),
                        height: forest.height_range(n),
                    }
                })
                .collect(),
            has_3d: forest.has_3d(),
            skip_surfaces: forest.skip_surfaces.clone(),
            textures: forest.textures.clone(),
            errors,
            warnings,
        }
    }

    /// A few aligned lines for people.
    pub fn to_human(&self) -> String {
        let mut out = format!("format     forest (version {})\n", self.version);
        out += &format!(
            "spacing    {} × {} m, random {} × {} m\n",
            self.spacing[0], self.spacing[1], self.random[0], self.random[1]
        );
        out += &format!(
            "trees      {}{}\n",
            self.trees,
            if self.has_3d {
                " (with 3-D models)"
            } else {
                ""
            }
        );
        for l in &self.layers {
            let h = l
                .height
                .map_or(String::new(), |[a, b]| format!(", {a} … {b} m"));
            out += &format!(
                "layer {:<4} {} trees, {}%{h}\n",
                l.layer, l.trees, l.percentage
            );
        }
        if let Some(t) = self.textures.get("texture") {
            out += &format!("texture    {t}\n");
        }
        out += &format!(
            "problems   {} errors, {} warnings\n",
            self.errors, self.warnings
        );
        out
    }
}
