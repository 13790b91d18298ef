//! The exclusions of higher-priority packages, applied to a whole placed
//! tile: what `scenery at` does at a point ([`crate::place::at`]), done for
//! every item of the tile.
//!
//! With an installation, and the tile's DSF inside one of its packages,
//! every exclusion zone of every enabled package ranked above that package
//! whose DSF covers the tile is applied to every item by the exclusion's
//! kind ([`ItemKind::exclusion`]: `sim/exclude_obj` removes objects and
//! autogen points, `_fac` facades and autogen blocks and strings, `_for`
//! forests, `_pol` draped polygons, `_lin` lines, `_str` object strings).
//! An item is removed when one vertex of the DSF entity that places it lies
//! in the zone ([`crate::scenery::exclude`]): every tree of a forest, every
//! object of a string and everything an autogen use places goes with its
//! entity. When a package above has a base mesh for the tile, X-Plane loads
//! nothing of the tile from the package below, and every item is removed by
//! that mesh, as `scenery at` says.
//!
//! Removed items stay in the placement, marked with [`RemovedBy`] (who,
//! which file, which property, which zone); [`Exclusions`] sums them up per
//! package and file. The views leave them out of what X-Plane would draw
//! (docs/gltf.md).

use super::Placement;
use super::at::{self, ItemKind, Zones};
use crate::dsf::Dsf;
use crate::dsf::autogen::{AutogenKind, AutogenUse};
use crate::geom::LonLat;
use crate::scenery::resolve::Tile;
use serde::Serialize;
use std::collections::BTreeMap;
use std::path::Path;

/// Who removed an item, and by what.
#[derive(Debug, Clone, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize)]
pub struct RemovedBy {
    /// The package whose exclusion (or base mesh) removes it.
    pub package: String,
    /// Its DSF of the tile, relative to the package.
    pub file: String,
    /// The property (`sim/exclude_obj` …), or `base mesh`.
    pub property: String,
    /// The zone as `west/south/east/north`, or `the whole tile` for a base
    /// mesh.
    pub zone: String,
}

/// What one package's DSF removed, counted per kind of item.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct ExcludedBy {
    /// The package.
    pub package: String,
    /// Its DSF of the tile, relative to the package.
    pub file: String,
    /// Items removed, per kind (`objects`, `facades`, `trees`, `draped`,
    /// `lines`, `autogen uses`), kinds with none left out.
    pub removed: BTreeMap<String, usize>,
}

impl ExcludedBy {
    /// `12 objects, 40 trees by PACKAGE (file)`.
    pub fn describe(&self) -> String {
        let counts: Vec<String> = self
            .removed
            .iter()
            .map(|(k, n)| format!("{n} {k}"))
            .collect();
        format!("{} by {} ({})", counts.join(", "), self.package, self.file)
    }
}

/// The exclusions applied to a whole tile.
#[derive(Debug, Clone, Default, PartialEq, Eq, Serialize)]
pub struct Exclusions {
    /// False when none were looked at ([`Exclusions::note`] says why: no
    /// installation, or the DSF is in none of its packages).
    pub looked_at: bool,
    /// Why none were looked at.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub note: Option<String>,
    /// Packages ranked above the tile's whose DSF of the tile was read.
    pub packages_above: usize,
    /// Their exclusion zones.
    pub zones: usize,
    /// What was removed, per package and file, highest priority first.
    pub by: Vec<ExcludedBy>,
    /// DSFs or properties of the packages above that could not be read.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub warnings: Vec<String>,
}

impl Exclusions {
    /// None looked at, and why.
    pub fn not_looked_at(why: impl Into<String>) -> Exclusions {
        Exclusions {
            note: Some(why.into()),
            ..Exclusions::default()
        }
    }

    /// One line: `excluded: 12 objects, 40 trees by PACKAGE (file); …`,
    /// `excluded: nothing (N zones of M packages above)` or `exclusions:
    /// none looked at (why)`.
    pub fn describe(&self) -> String {
        if !self.looked_at {
            return format!(
                "exclusions: none looked at ({})",
                self.note.as_deref().unwrap_or("no installation")
            );
        }
        if self.by.is_empty() {
            return format!(
                "excluded: nothing ({} zones in {} DSFs of packages above)",
                self.zones, self.packages_above
            );
        }
        let parts: Vec<String> = self.by.iter().map(ExcludedBy::describe).collect();
        format!("excluded: {}", parts.join("; "))
    }

    fn count(&mut self, by: &RemovedBy, kind: &str, n: usize) {
        if n == 0 {
            return;
        }
        let i = match self
            .by
            .iter()
            .position(|e| e.package == by.package && e.file == by.file)
        {
            Some(i) => i,
            None => {
                self.by.push(ExcludedBy {
                    package: by.package.clone(),
                    file: by.file.clone(),
                    removed: BTreeMap::new(),
                });
                self.by.len() - 1
            }
        };
        *self.by[i].removed.entry(kind.to_string()).or_default() += n;
    }
}

/// The zones and base mesh of the packages above one DSF's package, ready
/// to judge its items.
#[derive(Debug, Clone)]
pub struct Judge {
    above: at::Above,
    own: usize,
}

impl Judge {
    /// What is above the package ranked `own` for `tile` in `inst`.
    pub fn new(
        inst: &crate::scenery::install::Installation,
        tile: Tile,
        own: usize,
        limits: &crate::limits::Limits,
    ) -> Judge {
        Judge {
            above: at::above(inst, tile, own, limits),
            own,
        }
    }

    /// Who removes an item of `kind` with vertices `points`: the base mesh
    /// above, else the highest-priority zone of its kind holding one of
    /// its vertices.
    pub fn removes(&self, kind: ItemKind, points: &[LonLat]) -> Option<RemovedBy> {
        if let Some((package, file)) = &self.above.mesh {
            return Some(RemovedBy {
                package: package.clone(),
                file: file.clone(),
                property: "base mesh".into(),
                zone: "the whole tile".into(),
            });
        }
        let z = self
            .above
            .zones
            .first(kind.exclusion()?, self.own, points)?;
        let [w, s, e, n] = z.exclusion.bbox;
        Some(RemovedBy {
            package: z.package.clone(),
            file: z.file.clone(),
            property: z.exclusion.kind.property(),
            zone: format!("{w}/{s}/{e}/{n}"),
        })
    }

    /// Who removes autogen use `u`.
    pub fn removes_use(&self, u: &AutogenUse) -> Option<RemovedBy> {
        let kind = match u.kind {
            AutogenKind::Agp => ItemKind::AutogenPoint,
            AutogenKind::Agb => ItemKind::AutogenBlock,
            AutogenKind::Ags => ItemKind::AutogenString,
        };
        let points: Vec<LonLat> = u
            .point
            .into_iter()
            .chain(u.windings.iter().flatten().copied())
            .collect();
        self.removes(kind, &points)
    }

    /// The zones.
    pub fn zones(&self) -> &Zones {
        &self.above.zones
    }
}

/// Marks every item of a whole tile's `placements` that `judge` removes:
/// an autogen use (already marked in [`Placement::removed_by`] as it was
/// placed) marks everything it placed; the items of the other placements
/// are judged by the DSF entity that placed them. Returns the summary.
pub fn apply(
    judge: &Judge,
    dsf: &Dsf,
    placements: &mut [Placement],
    unplaced: &[Placement],
) -> Exclusions {
    let mut out = Exclusions {
        looked_at: true,
        packages_above: judge.above.dsfs,
        zones: judge.above.zones.len(),
        warnings: judge.above.warnings.clone(),
        ..Exclusions::default()
    };
    let mut by_entity: Vec<Option<Option<RemovedBy>>> = vec![None; dsf.entities.len()];
    let mut of_entity = |e: Option<usize>| -> Option<RemovedBy> {
        let e = e?;
        let slot = by_entity.get_mut(e)?;
        slot.get_or_insert_with(|| {
            let s = at::entity_shape(dsf, &dsf.entities[e])?;
            let points: Vec<LonLat> = s.shape.iter().flatten().copied().collect();
            judge.removes(s.kind, &points)
        })
        .clone()
    };
    for p in unplaced {
        if let Some(r) = &p.removed_by {
            out.count(r, "autogen uses", 1);
        }
    }
    for p in placements.iter_mut() {
        if p.kind.is_autogen() {
            let Some(r) = p.removed_by.clone() else {
                continue;
            };
            out.count(&r, "autogen uses", 1);
            for o in &mut p.objects {
                o.removed_by = Some(r.clone());
            }
            for f in &mut p.facades {
                f.removed_by = Some(r.clone());
            }
            for t in &mut p.trees {
                t.removed_by = Some(r.clone());
            }
            continue;
        }
        let mut tally: Vec<(RemovedBy, &str)> = Vec::new();
        for o in &mut p.objects {
            o.removed_by = of_entity(o.entity);
            tally.extend(o.removed_by.clone().map(|r| (r, "objects")));
        }
        for f in &mut p.facades {
            f.removed_by = of_entity(f.entity);
            tally.extend(f.removed_by.clone().map(|r| (r, "facades")));
        }
        for t in &mut p.trees {
            t.removed_by = of_entity(t.entity);
            tally.extend(t.removed_by.clone().map(|r| (r, "trees")));
        }
        for d in &mut p.draped {
            d.removed_by = of_entity(Some(d.entity));
            tally.extend(d.removed_by.clone().map(|r| (r, "draped")));
        }
        for l in &mut p.lines {
            l.removed_by = of_entity(Some(l.entity));
            tally.extend(l.removed_by.clone().map(|r| (r, "lines")));
        }
        for (r, k) in tally {
            out.count(&r, k, 1);
        }
    }
    out
}

/// The judge for the DSF at `path` of `tile`, or why there is none: no
/// installation, or the DSF is in none of its packages.
pub fn judge_for(
    scenery: &crate::scenery::Scenery,
    path: &Path,
    tile: Tile,
    limits: &crate::limits::Limits,
) -> Result<Judge, String> {
    let inst = scenery
        .install()
        .ok_or("no installation given (--xplane)")?;
    let abs = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_path_buf());
    let pkg = inst
        .package_of(&abs)
        .or_else(|| inst.package_of(path))
        .ok_or_else(|| {
            format!(
                "{} is in none of the installation's packages",
                path.display()
            )
        })?;
    Ok(Judge::new(inst, tile, pkg.priority, limits))
}
