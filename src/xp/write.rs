//! Writing a model back to text (canonical form).
