//! DataLoaders: related records (a model's creator, offerings, scores; a provider's models;
//! an agent's models) are fetched with one `IN (...)` query per batch, never one per parent.

use std::collections::HashMap;
use std::sync::Arc;

use async_graphql::dataloader::Loader;
use entity::{agent, agent_score, benchmark, model, offering, price_history, provider, score};
use sea_orm::{DatabaseConnection, DbErr};

use crate::store::queries as q;

/// Loads through the store; one instance per request, so nothing outlives an import.
pub struct StoreLoader {
    pub db: DatabaseConnection,
}

macro_rules! key {
    ($(#[$doc:meta])* $name:ident) => {
        $(#[$doc])*
        #[derive(Debug, Clone, PartialEq, Eq, Hash)]
        pub struct $name(pub String);
    };
}

key!(/// A model by slug.
    ModelKey);
key!(/// A provider by slug.
    ProviderKey);
key!(/// A benchmark by slug.
    BenchmarkKey);
key!(/// An agent by slug.
    AgentKey);
key!(/// The offerings of a model.
    OfferingsOf);
key!(/// The offerings at a provider.
    OfferingsAt);
key!(/// The scores of a model.
    ScoresOf);
key!(/// The aliases of a model.
    AliasesOf);
key!(/// The price history of a model.
    HistoryOf);
key!(/// The models an organisation created.
    CreatedBy);
key!(/// The model slugs an agent ran on.
    AgentModelsOf);
key!(/// The agents that ran on a model.
    AgentsOfModel);
key!(/// The scores of an agent.
    AgentScoresOf);

pub type LoadError = Arc<DbErr>;

fn keys<K: Clone>(ks: &[K], f: impl Fn(&K) -> String) -> Vec<String> {
    ks.iter().map(f).collect()
}

fn by_key<T, K: std::hash::Hash + Eq>(rows: Vec<T>, key: impl Fn(&T) -> K) -> HashMap<K, T> {
    rows.into_iter().map(|r| (key(&r), r)).collect()
}

fn group<T, K: std::hash::Hash + Eq>(rows: Vec<T>, key: impl Fn(&T) -> K) -> HashMap<K, Vec<T>> {
    let mut out: HashMap<K, Vec<T>> = HashMap::new();
    for r in rows {
        out.entry(key(&r)).or_default().push(r);
    }
    out
}

impl Loader<ModelKey> for StoreLoader {
    type Value = model::Model;
    type Error = LoadError;
    async fn load(&self, ks: &[ModelKey]) -> Result<HashMap<ModelKey, Self::Value>, Self::Error> {
        let rows = q::models_by_slugs(&self.db, &keys(ks, |k| k.0.clone())).await?;
        Ok(by_key(rows, |r| ModelKey(r.slug.clone())))
    }
}

impl Loader<ProviderKey> for StoreLoader {
    type Value = provider::Model;
    type Error = LoadError;
    async fn load(
        &self,
        ks: &[ProviderKey],
    ) -> Result<HashMap<ProviderKey, Self::Value>, Self::Error> {
        let rows = q::providers_by_slugs(&self.db, &keys(ks, |k| k.0.clone())).await?;
        Ok(by_key(rows, |r| ProviderKey(r.slug.clone())))
    }
}

impl Loader<BenchmarkKey> for StoreLoader {
    type Value = benchmark::Model;
    type Error = LoadError;
    async fn load(
        &self,
        ks: &[BenchmarkKey],
    ) -> Result<HashMap<BenchmarkKey, Self::Value>, Self::Error> {
        let rows = q::benchmarks_by_slugs(&self.db, &keys(ks, |k| k.0.clone())).await?;
        Ok(by_key(rows, |r| BenchmarkKey(r.slug.clone())))
    }
}

impl Loader<AgentKey> for StoreLoader {
    type Value = agent::Model;
    type Error = LoadError;
    async fn load(&self, ks: &[AgentKey]) -> Result<HashMap<AgentKey, Self::Value>, Self::Error> {
        let rows = q::agents_by_slugs(&self.db, &keys(ks, |k| k.0.clone())).await?;
        Ok(by_key(rows, |r| AgentKey(r.slug.clone())))
    }
}

impl Loader<OfferingsOf> for StoreLoader {
    type Value = Vec<offering::Model>;
    type Error = LoadError;
    async fn load(
        &self,
        ks: &[OfferingsOf],
    ) -> Result<HashMap<OfferingsOf, Self::Value>, Self::Error> {
        let rows = q::offerings_of(&self.db, &keys(ks, |k| k.0.clone())).await?;
        Ok(group(rows, |r| OfferingsOf(r.model_slug.clone())))
    }
}

impl Loader<OfferingsAt> for StoreLoader {
    type Value = Vec<offering::Model>;
    type Error = LoadError;
    async fn load(
        &self,
        ks: &[OfferingsAt],
    ) -> Result<HashMap<OfferingsAt, Self::Value>, Self::Error> {
        let rows = q::offerings_at(&self.db, &keys(ks, |k| k.0.clone())).await?;
        Ok(group(rows, |r| OfferingsAt(r.provider_slug.clone())))
    }
}

impl Loader<ScoresOf> for StoreLoader {
    type Value = Vec<score::Model>;
    type Error = LoadError;
    async fn load(&self, ks: &[ScoresOf]) -> Result<HashMap<ScoresOf, Self::Value>, Self::Error> {
        let rows = q::scores_of(&self.db, &keys(ks, |k| k.0.clone())).await?;
        Ok(group(rows, |r| ScoresOf(r.model_slug.clone())))
    }
}

impl Loader<AliasesOf> for StoreLoader {
    type Value = Vec<String>;
    type Error = LoadError;
    async fn load(&self, ks: &[AliasesOf]) -> Result<HashMap<AliasesOf, Self::Value>, Self::Error> {
        let rows = q::aliases_of(&self.db, &keys(ks, |k| k.0.clone())).await?;
        let mut out: HashMap<AliasesOf, Vec<String>> = HashMap::new();
        for r in rows {
            out.entry(AliasesOf(r.model_slug))
                .or_default()
                .push(r.alias);
        }
        Ok(out)
    }
}

impl Loader<HistoryOf> for StoreLoader {
    type Value = Vec<price_history::Model>;
    type Error = LoadError;
    async fn load(&self, ks: &[HistoryOf]) -> Result<HashMap<HistoryOf, Self::Value>, Self::Error> {
        let rows = q::history_of(&self.db, &keys(ks, |k| k.0.clone())).await?;
        Ok(group(rows, |r| HistoryOf(r.model_slug.clone())))
    }
}

impl Loader<CreatedBy> for StoreLoader {
    type Value = Vec<model::Model>;
    type Error = LoadError;
    async fn load(&self, ks: &[CreatedBy]) -> Result<HashMap<CreatedBy, Self::Value>, Self::Error> {
        let rows = q::models_created_by(&self.db, &keys(ks, |k| k.0.clone())).await?;
        Ok(group(rows, |r| {
            CreatedBy(r.creator_slug.clone().unwrap_or_default())
        }))
    }
}

impl Loader<AgentModelsOf> for StoreLoader {
    type Value = Vec<String>;
    type Error = LoadError;
    async fn load(
        &self,
        ks: &[AgentModelsOf],
    ) -> Result<HashMap<AgentModelsOf, Self::Value>, Self::Error> {
        let rows = q::agent_models_of(&self.db, &keys(ks, |k| k.0.clone())).await?;
        let mut out: HashMap<AgentModelsOf, Vec<String>> = HashMap::new();
        for r in rows {
            out.entry(AgentModelsOf(r.agent_slug))
                .or_default()
                .push(r.model_slug);
        }
        Ok(out)
    }
}

impl Loader<AgentsOfModel> for StoreLoader {
    type Value = Vec<String>;
    type Error = LoadError;
    async fn load(
        &self,
        ks: &[AgentsOfModel],
    ) -> Result<HashMap<AgentsOfModel, Self::Value>, Self::Error> {
        let rows = q::agents_of_models(&self.db, &keys(ks, |k| k.0.clone())).await?;
        let mut out: HashMap<AgentsOfModel, Vec<String>> = HashMap::new();
        for r in rows {
            out.entry(AgentsOfModel(r.model_slug))
                .or_default()
                .push(r.agent_slug);
        }
        Ok(out)
    }
}

impl Loader<AgentScoresOf> for StoreLoader {
    type Value = Vec<agent_score::Model>;
    type Error = LoadError;
    async fn load(
        &self,
        ks: &[AgentScoresOf],
    ) -> Result<HashMap<AgentScoresOf, Self::Value>, Self::Error> {
        let rows = q::agent_scores_of(&self.db, &keys(ks, |k| k.0.clone())).await?;
        Ok(group(rows, |r| AgentScoresOf(r.agent_slug.clone())))
    }
}
