//! Array of structs vs struct of arrays, for a pass that reads one field of many.

// ANCHOR: layouts
/// Array of structs: one particle's fields sit together (64 bytes each).
#[derive(Clone, Copy, Default)]
pub struct Particle {
    pub position: [f32; 3],
    pub velocity: [f32; 3],
    pub colour: [f32; 4],
    pub mass: f32,
    pub age: f32,
    pub id: u64,
    pub _flags: [u32; 2],
}

/// Struct of arrays: each field in its own tightly packed array.
#[derive(Default)]
pub struct Particles {
    pub position: Vec<[f32; 3]>,
    pub velocity: Vec<[f32; 3]>,
    pub colour: Vec<[f32; 4]>,
    pub mass: Vec<f32>,
    pub age: Vec<f32>,
    pub id: Vec<u64>,
}

/// Total mass, AoS: every 64-byte particle is loaded to use 4 bytes of it.
pub fn total_mass_aos(particles: &[Particle]) -> f32 {
    particles.iter().map(|p| p.mass).sum()
}

/// Total mass, SoA: the masses are contiguous and every byte loaded is used. The sum stays one
/// chain of float additions (their order is part of the result, so the compiler keeps it).
pub fn total_mass_soa(particles: &Particles) -> f32 {
    particles.mass.iter().sum()
}
// ANCHOR_END: layouts

impl Particles {
    pub fn from_aos(aos: &[Particle]) -> Self {
        Self {
            position: aos.iter().map(|p| p.position).collect(),
            velocity: aos.iter().map(|p| p.velocity).collect(),
            colour: aos.iter().map(|p| p.colour).collect(),
            mass: aos.iter().map(|p| p.mass).collect(),
            age: aos.iter().map(|p| p.age).collect(),
            id: aos.iter().map(|p| p.id).collect(),
        }
    }
}

pub fn particles(n: usize) -> Vec<Particle> {
    (0..n)
        .map(|i| Particle {
            mass: (i % 7) as f32,
            id: i as u64,
            ..Default::default()
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn both_layouts_hold_the_same_total() {
        let aos = particles(1000);
        let soa = Particles::from_aos(&aos);
        assert_eq!(total_mass_aos(&aos), total_mass_soa(&soa));
        assert_eq!(std::mem::size_of::<Particle>(), 64);
        assert_eq!(soa.id[999], 999);
    }
}
