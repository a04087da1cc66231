//! Running many games at once: matches between agents, design metrics, and a batch of
//! games stepped together for reinforcement learning.

pub mod matches;
pub mod metrics;
pub mod vec_env;
