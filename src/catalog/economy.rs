//! The economy indicators as served: each indicator with its monthly points, oldest first.

use super::HashMap;
use std::sync::Arc;

use entity::{economy_indicator, economy_point};

use super::Row;

#[derive(Default)]
pub struct Economy {
    /// In their listed order.
    indicators: Vec<Row<economy_indicator::Model>>,
    index: HashMap<String, usize>,
    /// Indicator slug → its points by month.
    points: HashMap<String, Vec<Row<economy_point::Model>>>,
}

impl Economy {
    pub fn build(
        indicators: Vec<economy_indicator::Model>,
        points: Vec<economy_point::Model>,
    ) -> Self {
        let mut indicators: Vec<Row<economy_indicator::Model>> =
            indicators.into_iter().map(Arc::new).collect();
        indicators.sort_by(|a, b| a.position.cmp(&b.position).then(a.slug.cmp(&b.slug)));
        let index = indicators
            .iter()
            .enumerate()
            .map(|(i, x)| (x.slug.clone(), i))
            .collect();
        let mut by_slug: HashMap<String, Vec<Row<economy_point::Model>>> = HashMap::default();
        for p in points {
            by_slug
                .entry(p.indicator_slug.clone())
                .or_default()
                .push(Arc::new(p));
        }
        for list in by_slug.values_mut() {
            list.sort_by(|a, b| a.month.cmp(&b.month));
        }
        Self {
            indicators,
            index,
            points: by_slug,
        }
    }

    pub fn indicators(&self) -> &[Row<economy_indicator::Model>] {
        &self.indicators
    }

    pub fn indicator(&self, slug: &str) -> Option<&Row<economy_indicator::Model>> {
        self.index.get(slug).map(|&i| &self.indicators[i])
    }

    /// An indicator's points from `from` to `to` (`YYYY-MM`, both included), oldest first.
    pub fn series(
        &self,
        slug: &str,
        from: Option<&str>,
        to: Option<&str>,
    ) -> &[Row<economy_point::Model>] {
        let all = self.points.get(slug).map_or(&[][..], Vec::as_slice);
        let start = from.map_or(0, |f| all.partition_point(|p| p.month.as_str() < f));
        let end = to.map_or(all.len(), |t| {
            all.partition_point(|p| p.month.as_str() <= t)
        });
        all.get(start..end.max(start)).unwrap_or_default()
    }

    /// The longest series.
    pub fn longest(&self) -> usize {
        self.points.values().map(Vec::len).max().unwrap_or(0)
    }
}
