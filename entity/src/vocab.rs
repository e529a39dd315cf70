//! The closed vocabularies of the stored rows (an offering's kind, a model's task, a score's
//! provenance, …): each an enum whose variants carry their snake_case names, stored in TEXT
//! columns as those names, so the schema and the stored bytes are those of plain strings.
//!
//! One list per vocabulary: `ALL`, `NAMES` and `as_str` come from the variants, and the REST
//! enum lists, the OpenAPI schemas and the GraphQL enums are read from them (see
//! `docs/ARCHITECTURE.md`, "Add a vocabulary value").

use sea_orm::entity::prelude::*;

/// Declares a vocabulary: an enum whose variants each name their stored (and REST) spelling,
/// with `ALL`, `NAMES`, `as_str`, `parse`, `Display` and serde as that spelling. Further
/// derives (the database's, GraphQL's) are given with the enum's own attributes.
#[macro_export]
macro_rules! vocabulary {
    (
        $(#[$meta:meta])*
        $vis:vis enum $name:ident {
            $( $(#[$vmeta:meta])* $variant:ident = $text:literal, )+
        }
    ) => {
        $(#[$meta])*
        #[derive(
            Clone, Copy, Debug, PartialEq, Eq, Hash,
            ::serde::Serialize, ::serde::Deserialize,
        )]
        $vis enum $name {
            $( $(#[$vmeta])* #[serde(rename = $text)] $variant, )+
        }

        impl $name {
            /// Every value, in the order they are listed.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];
            /// Every value's name, in the same order.
            pub const NAMES: &'static [&'static str] = &[$($text),+];

            /// The value as it is stored and served in REST.
            pub const fn as_str(self) -> &'static str {
                match self {
                    $($name::$variant => $text,)+
                }
            }

            /// The value named `s` (exactly as stored), if one is.
            pub fn parse(s: &str) -> Option<Self> {
                match s {
                    $($text => Some($name::$variant),)+
                    _ => None,
                }
            }
        }

        impl ::std::fmt::Display for $name {
            fn fmt(&self, f: &mut ::std::fmt::Formatter<'_>) -> ::std::fmt::Result {
                f.write_str(self.as_str())
            }
        }
    };
}

vocabulary! {
    /// Who sells an offering.
    #[derive(EnumIter, DeriveActiveEnum)]
    #[sea_orm(rs_type = "String", db_type = "Text", rename_all = "snake_case")]
    #[cfg_attr(feature = "graphql", derive(async_graphql::Enum))]
    pub enum OfferingKind {
        /// The model creator's own API.
        FirstParty = "first_party",
        Cloud = "cloud",
        Router = "router",
        Reseller = "reseller",
        /// A subscription.
        Plan = "plan",
        /// Offered at 0/0.
        FreeTier = "free_tier",
    }
}

vocabulary! {
    /// What an organisation is: a model's creator, or a seller of others' models.
    #[derive(EnumIter, DeriveActiveEnum)]
    #[sea_orm(rs_type = "String", db_type = "Text", rename_all = "snake_case")]
    pub enum ProviderKind {
        Creator = "creator",
        Cloud = "cloud",
        Router = "router",
        Reseller = "reseller",
        Plan = "plan",
    }
}

vocabulary! {
    /// How a model can be had.
    #[derive(EnumIter, DeriveActiveEnum)]
    #[sea_orm(rs_type = "String", db_type = "Text", rename_all = "snake_case")]
    pub enum Availability {
        /// At least one provider offers it.
        Api = "api",
        /// Weights published, no priced offering.
        OpenWeights = "open_weights",
        /// Known only from a benchmark table.
        Research = "research",
    }
}

// What a model is for. (A `//` comment: the GraphQL enum has no description.)
vocabulary! {
    #[derive(EnumIter, DeriveActiveEnum)]
    #[sea_orm(rs_type = "String", db_type = "Text", rename_all = "snake_case")]
    #[cfg_attr(feature = "graphql", derive(async_graphql::Enum))]
    pub enum Task {
        Chat = "chat",
        Embedding = "embedding",
        ImageGeneration = "image_generation",
        SpeechToText = "speech_to_text",
        TextToSpeech = "text_to_speech",
        VideoGeneration = "video_generation",
        Rerank = "rerank",
        Moderation = "moderation",
        Router = "router",
        Other = "other",
    }
}

// What a model takes and gives. (A `//` comment: the GraphQL enum has no description.)
vocabulary! {
    #[derive(EnumIter, DeriveActiveEnum)]
    #[sea_orm(rs_type = "String", db_type = "Text", rename_all = "snake_case")]
    #[cfg_attr(
        feature = "graphql",
        derive(async_graphql::Enum),
        graphql(name = "ModelCategory")
    )]
    pub enum Category {
        /// Text in, text out.
        Llm = "llm",
        /// More than text in or out.
        Multimodal = "multimodal",
        /// Image generation.
        Image = "image",
    }
}

vocabulary! {
    /// Which date dates a model.
    #[derive(EnumIter, DeriveActiveEnum)]
    #[sea_orm(rs_type = "String", db_type = "Text", rename_all = "snake_case")]
    pub enum DateBasis {
        ReleaseDate = "release_date",
        FirstSeen = "first_seen",
    }
}

vocabulary! {
    /// Which offering a model's list price is: its creator's own API, else the median paid one.
    #[derive(EnumIter, DeriveActiveEnum)]
    #[sea_orm(rs_type = "String", db_type = "Text", rename_all = "snake_case")]
    pub enum PriceBasis {
        FirstParty = "first_party",
        Median = "median",
    }
}

vocabulary! {
    /// What a model's capability index and average rest on.
    #[derive(EnumIter, DeriveActiveEnum)]
    #[sea_orm(rs_type = "String", db_type = "Text", rename_all = "snake_case")]
    #[cfg_attr(feature = "graphql", derive(async_graphql::Enum))]
    pub enum RankBasis {
        /// Every counted score was measured by a third party.
        Independent = "independent",
        /// Some counted scores are its maker's own figures.
        Mixed = "mixed",
        /// Every counted score is its maker's own figure.
        SelfReported = "self_reported",
    }
}

vocabulary! {
    /// Who ran a score (`data/score_provenance.csv`).
    #[derive(EnumIter, DeriveActiveEnum)]
    #[sea_orm(rs_type = "String", db_type = "Text", rename_all = "snake_case")]
    pub enum Provenance {
        /// A third party ran it.
        Independent = "independent",
        /// The model's maker published it.
        SelfReported = "self_reported",
    }
}

vocabulary! {
    /// How fresh a source's data is (docs/sync.md, "Freshness is visible"): computed from
    /// what the syncs recorded, never stored.
    #[cfg_attr(feature = "graphql", derive(async_graphql::Enum))]
    pub enum SourceStatus {
        /// The copy shipped with the service: no sync has fetched this source.
        Bundled = "bundled",
        /// The last sync kept a good copy, within the stale age.
        Ok = "ok",
        /// No successful sync for longer than the stale age (`MDS_SYNC_STALE_AFTER`).
        Stale = "stale",
        /// The last sync kept no new copy; the data is the last good copy's.
        Failed = "failed",
        /// A new copy beyond the sync's guard waits for an operator.
        Held = "held",
        /// A new copy is recorded but not served: another source has no stored copy.
        Waiting = "waiting",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The database's spelling (sea-orm's `rename_all`) is the declared one.
    fn stored_as_declared<T>(all: &[T], name: fn(T) -> &'static str)
    where
        T: ActiveEnum<Value = String> + Copy + serde::Serialize,
    {
        assert!(!all.is_empty());
        for v in all {
            assert_eq!(v.to_value(), name(*v));
            assert_eq!(
                serde_json::to_value(v).ok(),
                Some(serde_json::json!(name(*v)))
            );
        }
    }

    #[test]
    fn every_vocabulary_is_stored_and_serialized_as_its_names() {
        stored_as_declared(OfferingKind::ALL, OfferingKind::as_str);
        stored_as_declared(ProviderKind::ALL, ProviderKind::as_str);
        stored_as_declared(Availability::ALL, Availability::as_str);
        stored_as_declared(Task::ALL, Task::as_str);
        stored_as_declared(Category::ALL, Category::as_str);
        stored_as_declared(DateBasis::ALL, DateBasis::as_str);
        stored_as_declared(PriceBasis::ALL, PriceBasis::as_str);
        stored_as_declared(RankBasis::ALL, RankBasis::as_str);
        stored_as_declared(Provenance::ALL, Provenance::as_str);
        assert_eq!(
            serde_json::to_string(&OfferingKind::FreeTier)
                .ok()
                .as_deref(),
            Some("\"free_tier\"")
        );
        assert_eq!(Task::parse("speech_to_text"), Some(Task::SpeechToText));
        assert_eq!(Task::parse("Speech_to_text"), None);
    }
}
