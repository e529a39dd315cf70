//! A hard bound on the size of any answer being built: every resolved field of a client's
//! document spends one unit of a per-request budget, and past it the field fails with
//! `ANSWER_TOO_LARGE` instead of growing the answer. The static bounds ([`super::guards`],
//! the complexity limit, [`super::introspection`]) refuse costly documents before they run;
//! this is what holds if one of them ever undercounts, so no document can exhaust memory.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};

use async_graphql::extensions::{
    Extension, ExtensionContext, ExtensionFactory, NextResolve, ResolveInfo,
};
use async_graphql::{ServerError, ServerResult, Value};

/// Most fields one answer may resolve: far above the complexity limit's worst case and the
/// standard introspection query (under 23,000 fields), far below what hurts memory.
pub const MAX_ANSWER_FIELDS: usize = 250_000;

/// The error code of an answer stopped by the budget.
pub const CODE: &str = "ANSWER_TOO_LARGE";

/// Makes one [`Budget`] per request.
pub struct AnswerBudget(pub usize);

impl ExtensionFactory for AnswerBudget {
    fn create(&self) -> Arc<dyn Extension> {
        Arc::new(Budget {
            left: AtomicUsize::new(self.0),
        })
    }
}

struct Budget {
    left: AtomicUsize,
}

#[async_trait::async_trait]
impl Extension for Budget {
    async fn resolve(
        &self,
        ctx: &ExtensionContext<'_>,
        info: ResolveInfo<'_>,
        next: NextResolve<'_>,
    ) -> ServerResult<Option<Value>> {
        let spent = self
            .left
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |n| n.checked_sub(1));
        if spent.is_err() {
            let mut e = ServerError::new(
                format!(
                    "The answer would exceed {MAX_ANSWER_FIELDS} fields; select less or page through it"
                ),
                None,
            );
            e.extensions
                .get_or_insert_with(Default::default)
                .set("code", CODE);
            return Err(e);
        }
        next.run(ctx, info).await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[tokio::test]
    async fn an_answer_past_the_budget_is_one_error_and_no_data() {
        use async_graphql::{EmptyMutation, EmptySubscription, Schema};
        let tight = Schema::build(
            crate::graphql::Query::default(),
            EmptyMutation,
            EmptySubscription,
        )
        .extension(AnswerBudget(50))
        .finish();
        // The schema has more than 50 types: the list alone spends the budget.
        let mut resp = tight.execute("{ __schema { types { name } } }").await;
        crate::graphql::stop_at_budget(&mut resp);
        assert_eq!(resp.errors.len(), 1, "{:?}", resp.errors);
        assert_eq!(resp.data, Value::Null);
        let code = resp.errors[0]
            .extensions
            .as_ref()
            .and_then(|e| e.get("code"));
        assert_eq!(code, Some(&Value::from(CODE)));
        // Within the budget, the same engine answers.
        let ok = tight.execute("{ __type(name: \"Model\") { name } }").await;
        assert!(ok.errors.is_empty(), "{:?}", ok.errors);
    }
}
