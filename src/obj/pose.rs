//! Objects in their pose: the static transform of each animation at its
//! first key.
//!
//! X-Plane draws an animated object moved by its animations. With no
//! simulator to give the datarefs' values, WorldEditor's preview asks each
//! animation for its first key (xptools `WED_PreviewLayer.cpp`,
//! `Obj_GetAnimParam` returns `v1`, the first key's value) and applies the
//! transforms in file order, nested as the blocks nest (`ObjDraw.cpp`,
//! `ObjDraw8`: `ANIM_begin` pushes the matrix, `ANIM_end` pops it,
//! `ANIM_rotate` is `glRotatef(angle, axis)`, `ANIM_trans` is
//! `glTranslatef`). agkit does the same: bounds, footprint, height,
//! pictures and glTF all use the posed vertices; `agkit info` also gives
//! the rest bounds.
//!
//! Per the OBJ8 specification: `ANIM_trans x1 y1 z1 x2 y2 z2 v1 v2 dref`
//! moves by (x1, y1, z1) at its first key; `ANIM_rotate x y z r1 r2 v1 v2
//! dref` turns by r1 degrees about the axis (x, y, z);
//! `ANIM_trans_begin`/`ANIM_rotate_begin` tables take their first
//! `…_key` row. `ANIM_hide`/`ANIM_show` do not move anything (the object
//! is shown).

/// An affine transform: three rows of `[a, b, c, t]`, applied as
/// `row · (x, y, z, 1)`.
pub type Pose = [[f64; 4]; 3];

/// The identity.
pub const IDENTITY: Pose = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
];

/// `p` applied to the point `v`.
pub fn apply(p: &Pose, v: [f64; 3]) -> [f64; 3] {
    let row = |r: &[f64; 4]| r[0] * v[0] + r[1] * v[1] + r[2] * v[2] + r[3];
    [row(&p[0]), row(&p[1]), row(&p[2])]
}

/// `a · b`: `b` applied first, then `a` (as OpenGL multiplies the current
/// matrix by each new transform on its right).
pub fn then(a: &Pose, b: &Pose) -> Pose {
    let mut out = [[0.0; 4]; 3];
    for (i, row) in out.iter_mut().enumerate() {
        for (j, cell) in row.iter_mut().enumerate() {
            *cell = (0..3).map(|k| a[i][k] * b[k][j]).sum::<f64>();
        }
        row[3] += a[i][3];
    }
    out
}

/// A move by `d`.
pub fn translation(d: [f64; 3]) -> Pose {
    [
        [1.0, 0.0, 0.0, d[0]],
        [0.0, 1.0, 0.0, d[1]],
        [0.0, 0.0, 1.0, d[2]],
    ]
}

/// A turn of `degrees` about `axis` through the origin, counter-clockwise
/// looking from the axis's tip (`glRotatef`); the identity for a zero
/// axis.
pub fn rotation(axis: [f64; 3], degrees: f64) -> Pose {
    let l = (axis[0] * axis[0] + axis[1] * axis[1] + axis[2] * axis[2]).sqrt();
    if l == 0.0 || !l.is_finite() || !degrees.is_finite() {
        return IDENTITY;
    }
    let [x, y, z] = [axis[0] / l, axis[1] / l, axis[2] / l];
    let (s, c) = degrees.to_radians().sin_cos();
    let k = 1.0 - c;
    [
        [x * x * k + c, x * y * k - z * s, x * z * k + y * s, 0.0],
        [y * x * k + z * s, y * y * k + c, y * z * k - x * s, 0.0],
        [z * x * k - y * s, z * y * k + x * s, z * z * k + c, 0.0],
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    fn near(a: [f64; 3], b: [f64; 3]) -> bool {
        a.iter().zip(&b).all(|(a, b)| (a - b).abs() < 1e-9)
    }

    #[test]
    fn rotations_turn_as_opengl_does() {
        // 90° about +y takes +x to -z.
        assert!(near(
            apply(&rotation([0.0, 1.0, 0.0], 90.0), [1.0, 0.0, 0.0]),
            [0.0, 0.0, -1.0]
        ));
        // 90° about +z takes +x to +y.
        assert!(near(
            apply(&rotation([0.0, 0.0, 2.0], 90.0), [1.0, 0.0, 0.0]),
            [0.0, 1.0, 0.0]
        ));
        assert_eq!(rotation([0.0; 3], 45.0), IDENTITY);
    }

    #[test]
    fn later_transforms_apply_first() {
        // Translate then rotate (in file order): the point is turned, then
        // moved.
        let p = then(
            &translation([10.0, 0.0, 0.0]),
            &rotation([0.0, 1.0, 0.0], 90.0),
        );
        assert!(near(apply(&p, [1.0, 0.0, 0.0]), [10.0, 0.0, -1.0]));
    }
}
