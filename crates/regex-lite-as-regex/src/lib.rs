//! `regex-lite` under the name `regex` (see this package's Cargo.toml for why). The crates
//! that name `regex` use `Regex::new`, `is_match`, `find`, `find_iter` and `Match::as_str`,
//! which regex-lite has with the same signatures.

pub use regex_lite::*;

#[cfg(test)]
mod tests {
    use super::Regex;

    #[test]
    fn the_api_the_cel_functions_use() {
        let re = Regex::new("[a-z]+-[0-9]+").unwrap();
        assert!(re.is_match("gpu gpu-12 x"));
        assert_eq!(re.find("gpu gpu-12 x").map(|m| m.as_str()), Some("gpu-12"));
        let all: Vec<&str> = re.find_iter("a-1 b-2 c").map(|m| m.as_str()).collect();
        assert_eq!(all, ["a-1", "b-2"]);
        assert!(!Regex::new("(").unwrap_err().to_string().is_empty());
    }

    #[test]
    fn perl_classes_are_ascii_as_in_re2() {
        // Go's RE2 (which Kubernetes' CEL uses) reads \d, \w and \s as ASCII classes.
        assert!(!Regex::new(r"^\d$").unwrap().is_match("١"));
        assert!(!Regex::new(r"^\w$").unwrap().is_match("é"));
        assert!(Regex::new(r"^\w+$").unwrap().is_match("node_1"));
    }
}
