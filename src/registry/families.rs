//! `families!`: from one list of families (`Variant(getter, getter_mut) => Def`, each `Def` a
//! `family::contract::FamilyDef`), the family enum, the scenario (the seed and one family's section), the run,
//! report and live-figure types of any family, and every dispatch. The crate's list is in `registry/mod.rs`; a test
//! can list a family of its own (tests/sim/toy_family.rs). The first family listed is the default, and its keys are
//! a file's top level.

/// Generates `Family`, `Scenario`, `AnyRun`, `AnyDetail`, `AnyReport` and the registry's functions from a list of
/// families (see the module's documentation).
#[macro_export]
macro_rules! families {
    ($( $(#[$doc:meta])* $variant:ident ($get:ident, $get_mut:ident) => $def:ty ),+ $(,)?) => {
        #[allow(unused_imports)]
        use $crate::family::contract::FamilyDef as _;
        #[allow(unused_imports)]
        use $crate::family::contract::FamilyRun as _;

        /// Which family a scenario belongs to (`"family"` in the scenario JSON; absent = the first listed).
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
        #[serde(rename_all = "snake_case")]
        pub enum Family {
            $( $(#[$doc])* $variant, )+
        }

        impl Default for Family {
            fn default() -> Family {
                Family::ALL[0]
            }
        }

        impl Family {
            /// Every family, in the order listed.
            pub const ALL: &'static [Family] = &[$(Family::$variant),+];

            /// The family's name in a scenario file.
            pub fn name(self) -> &'static str {
                match self { $( Family::$variant => <$def>::NAME, )+ }
            }

            /// The family of this name.
            pub fn from_name(name: &str) -> Option<Family> {
                Family::ALL.iter().copied().find(|f| f.name() == name)
            }

            /// The names, as a documentation line lists them ("a | b | c").
            pub fn allowed() -> &'static str {
                static ALLOWED: std::sync::OnceLock<String> = std::sync::OnceLock::new();
                ALLOWED.get_or_init(|| Family::ALL.iter().map(|f| f.name()).collect::<Vec<_>>().join(" | "))
            }

            /// Its documented keys: `seed` and `family` (`$crate::registry::common`), then its own.
            pub fn params(self) -> Vec<&'static $crate::family::contract::Param> {
                static COMMON: std::sync::OnceLock<[$crate::family::contract::Param; 2]> = std::sync::OnceLock::new();
                let common = COMMON.get_or_init(|| $crate::registry::common(Family::allowed()));
                let own = match self { $( Family::$variant => <$def>::PARAMS, )+ };
                common.iter().chain(own).collect()
            }

            /// The decisions its paper leaves open.
            pub fn readings(self) -> &'static [$crate::readings::Reading] {
                match self { $( Family::$variant => <$def>::READINGS, )+ }
            }

            /// A sweep's `--set KEY` as the JSON path it sets in a scenario of this family.
            pub fn sweep_path(self, key: &str) -> String {
                match self { $( Family::$variant => <$def>::sweep_path(key), )+ }
            }

            /// Checks a user's script for the scenario key `key` of this family without running it.
            pub fn check_script(
                self,
                key: &str,
                source: &str,
            ) -> Result<(), $crate::family::contract::ScriptCheckError> {
                match self { $( Family::$variant => <$def>::check_script(key, source), )+ }
            }

            /// What `bagsim tournament` races in this family (None: no decision of it can be a script).
            pub fn tournament(self) -> Option<$crate::family::contract::Tournament> {
                match self { $( Family::$variant => <$def>::tournament(), )+ }
            }

            /// The CSV columns of a sweep of this family, after the axis columns.
            pub fn sweep_header(self) -> String {
                match self { $( Family::$variant => <$def>::sweep_header(), )+ }
            }

            /// `--seeds` of its figures when it is not given (None: it has no figures).
            pub fn figure_seeds(self) -> Option<&'static str> {
                match self { $( Family::$variant => <$def>::figures().map(|f| f.default_seeds()), )+ }
            }

            /// `bagsim figure NAME`: its figures on `base` (its default scenario when None), run, or planned as a
            /// study when `plan`.
            pub fn figure(
                self,
                out: &mut dyn $crate::family::contract::FigureOut,
                base: Option<&Scenario>,
                r: &$crate::family::contract::FigureRequest,
            ) -> $crate::family::contract::FigureOutcome {
                match self { $( Family::$variant => {
                    let f = <$def>::figures().ok_or_else(|| self.no_figures())?;
                    let default = Default::default();
                    f.run(out, base.and_then(|s| s.$get()).unwrap_or(&default), r)
                } )+ }
            }

            /// Its figures on `base` as a study (`bagsim figure NAME --plan`).
            pub fn figure_plan(
                self,
                base: Option<&Scenario>,
                r: &$crate::family::contract::FigureRequest,
            ) -> $crate::family::contract::FigureOutcome<$crate::family::contract::FigurePlan> {
                match self { $( Family::$variant => {
                    let f = <$def>::figures().ok_or_else(|| self.no_figures())?;
                    let default = Default::default();
                    f.plan(base.and_then(|s| s.$get()).unwrap_or(&default), r)
                } )+ }
            }

            /// The family whose figures plan studies of `kind` (None for a sweep).
            pub fn of_study(kind: $crate::family::contract::Kind) -> Option<Family> {
                $( if <$def>::figures().is_some_and(|f| f.plans(kind)) { return Some(Family::$variant); } )+
                None
            }

            /// Runs a point of a study of `kind`, one of this family's figures'.
            pub fn study_point(
                self,
                kind: $crate::family::contract::Kind,
                p: &$crate::family::contract::Point,
            ) -> Result<serde_json::Value, $crate::family::contract::PointError> {
                match self { $( Family::$variant => match <$def>::figures() {
                    Some(f) => f.point(kind, p),
                    None => Err($crate::family::contract::PointError::Job(self.no_figures().message)),
                }, )+ }
            }

            /// Merges a complete study of `kind`, one of this family's figures', into the files a direct run writes.
            pub fn study_merge(
                self,
                kind: $crate::family::contract::Kind,
                out: &mut dyn $crate::family::contract::FigureOut,
                spec: &serde_json::Value,
                points: &[$crate::family::contract::Point],
                outcomes: &[&serde_json::Value],
            ) -> $crate::family::contract::FigureOutcome {
                match self { $( Family::$variant => {
                    <$def>::figures().ok_or_else(|| self.no_figures())?.merge(kind, out, spec, points, outcomes)
                } )+ }
            }

            fn no_figures(self) -> $crate::family::contract::FigureError {
                format!("the {} family has no paper figures", self.name()).into()
            }

            /// The section keys of every family but this one, with their family's names.
            fn other_sections(self) -> Vec<(&'static str, &'static str)> {
                let mut out = Vec::new();
                $( if self != Family::$variant {
                    if let Some(section) = <$def>::SECTION { out.push((section, <$def>::NAME)); }
                } )+
                out
            }

            /// Whether a top-level key is the first family's, at its default.
            fn first_at_default(key: &str, value: &serde_json::Value) -> Option<bool> {
                match Family::ALL[0] { $( Family::$variant => <$def>::key_at_default(key, value), )+ }
            }
        }

        /// A complete, reproducible simulation setup: the seed and one family's section. The first family's keys
        /// are a file's top level and its files have no `family` key; every other family's file is `seed`,
        /// `family` and its section.
        // A scenario is built once per run and cloned per point of a study: the size of its largest section is
        // not worth a box on every access.
        #[allow(clippy::large_enum_variant)]
        #[derive(Clone, Debug, PartialEq)]
        pub enum Scenario {
            $( $(#[$doc])* $variant(<$def as $crate::family::contract::FamilyDef>::Scenario), )+
        }

        impl Default for Scenario {
            fn default() -> Scenario {
                Scenario::default_for(Family::default())
            }
        }

        impl Scenario {
            /// The default scenario of a family (`bagsim scenario --family`).
            pub fn default_for(family: Family) -> Scenario {
                match family { $( Family::$variant => Scenario::$variant(Default::default()), )+ }
            }

            /// The scenario's family.
            pub fn family(&self) -> Family {
                match self { $( Scenario::$variant(_) => Family::$variant, )+ }
            }

            /// The seed of every random stream.
            pub fn seed(&self) -> u64 {
                match self { $( Scenario::$variant(s) => <$def>::seed(s), )+ }
            }

            /// Sets the seed.
            pub fn set_seed(&mut self, seed: u64) {
                match self { $( Scenario::$variant(s) => <$def>::set_seed(s, seed), )+ }
            }

            $(
                /// The family's section, when the scenario is of that family.
                #[allow(unreachable_patterns)]
                pub fn $get(&self) -> Option<&<$def as $crate::family::contract::FamilyDef>::Scenario> {
                    match self { Scenario::$variant(s) => Some(s), _ => None }
                }

                /// The family's section to change, when the scenario is of that family.
                #[allow(unreachable_patterns)]
                pub fn $get_mut(&mut self) -> Option<&mut <$def as $crate::family::contract::FamilyDef>::Scenario> {
                    match self { Scenario::$variant(s) => Some(s), _ => None }
                }
            )+

            /// Parses JSON and checks it; the error names the field and what is allowed.
            pub fn from_json(text: &str) -> Result<Scenario, $crate::family::contract::ScenarioError> {
                let s = Scenario::read(text)?;
                // serde reads a struct from an array of its fields in order; the documented form is an object, and
                // an array (`"workload": []`, a cluster as `["a", 4, 1.0]`) is refused where an object is read.
                if let (Ok(input), Ok(read)) = (serde_json::from_str(text), serde_json::to_value(&s)) {
                    $crate::family::contract::objects_as_objects(&input, &read, "")?;
                }
                s.validate()?;
                Ok(s)
            }

            /// Reads JSON without checking the values.
            fn read(text: &str) -> Result<Scenario, $crate::family::contract::ScenarioError> {
                #[derive(serde::Deserialize)]
                struct Tag {
                    #[serde(default)]
                    family: Family,
                }
                let fix = |e| $crate::registry::with_allowed(e, Family::ALL.iter().flat_map(|f| f.params()));
                let family = $crate::family::contract::parse_json::<Tag>(text).map_err(fix)?.family;
                let sections = family.other_sections();
                let first = |k: &str, v: &serde_json::Value| Family::first_at_default(k, v);
                let others = $crate::family::contract::Others {
                    sections: &sections,
                    first: (family != Family::ALL[0]).then_some((Family::ALL[0].name(), &first as _)),
                };
                match family { $( Family::$variant => {
                    $crate::family::contract::read_scenario::<$def>(text, &others).map(Scenario::$variant).map_err(fix)
                } )+ }
            }

            /// Checks every value the scenario's family runs on.
            pub fn validate(&self) -> Result<(), $crate::family::contract::ScenarioError> {
                match self { $( Scenario::$variant(s) => <$def>::validate(s), )+ }
            }

            /// The keys whose value changes nothing under the other settings.
            pub fn unused(&self) -> Vec<$crate::family::contract::Unused> {
                match self { $( Scenario::$variant(s) => <$def>::unused(s), )+ }
            }

            /// The scenario as JSON text with every unused key (`unused`) at its default: two scenarios with the
            /// same text give the same run, so a study runs it once.
            pub fn canonical_json(&self) -> String {
                match self { $( Scenario::$variant(s) => $crate::family::contract::canonical_json::<$def>(s), )+ }
            }

            /// The trace the run reads by name, when it must be read (not a bundled log): its size is needed for
            /// the scenario's estimate.
            pub fn trace_named(&self) -> Option<&str> {
                match self { $( Scenario::$variant(s) => <$def>::trace_named(s), )+ }
            }

            /// What a run of the scenario will cost, estimated before anything runs (docs/budget.md); `trace` is
            /// the size of the trace it names when read.
            pub fn estimate(&self, trace: Option<&$crate::trace::TraceSize>) -> $crate::family::contract::Estimate {
                match self { $( Scenario::$variant(s) => <$def>::estimate(s, trace), )+ }
            }
        }

        impl Scenario {
            /// Writes the scenario under its family's tag (`{"DesktopGrid": {…}}`): the form that crosses the
            /// worker boundary (`protocol`), read back without buffering (`deserialize_tagged`).
            pub fn serialize_tagged<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                #[derive(serde::Serialize)]
                enum Tagged<'a> {
                    $( $variant(&'a <$def as $crate::family::contract::FamilyDef>::Scenario), )+
                }
                let tagged = match self { $( Scenario::$variant(s) => Tagged::$variant(s), )+ };
                serde::Serialize::serialize(&tagged, serializer)
            }

            /// Reads what `serialize_tagged` wrote.
            pub fn deserialize_tagged<'de, D: serde::Deserializer<'de>>(deserializer: D) -> Result<Scenario, D::Error> {
                #[allow(clippy::large_enum_variant)]
                #[derive(serde::Deserialize)]
                enum Tagged {
                    $( $variant(<$def as $crate::family::contract::FamilyDef>::Scenario), )+
                }
                Ok(match <Tagged as serde::Deserialize>::deserialize(deserializer)? {
                    $( Tagged::$variant(s) => Scenario::$variant(s), )+
                })
            }
        }

        impl serde::Serialize for Scenario {
            fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
                match self { $( Scenario::$variant(s) => s.serialize(serializer), )+ }
            }
        }

        /// Reads a scenario as `Serialize` writes it (the worker receives scenarios this way): the first family
        /// whose type reads it (each type refuses the others' keys). A file a person wrote goes through
        /// `Scenario::from_json`, whose refusals name the field.
        impl<'de> serde::Deserialize<'de> for Scenario {
            fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
                #[allow(clippy::large_enum_variant)]
                #[derive(serde::Deserialize)]
                #[serde(untagged)]
                enum Written {
                    $( $variant(<$def as $crate::family::contract::FamilyDef>::Scenario), )+
                }
                Ok(match Written::deserialize(deserializer)? { $( Written::$variant(s) => Scenario::$variant(s), )+ })
            }
        }

        /// A run of any family.
        pub enum AnyRun {
            $( $variant(Box<<$def as $crate::family::contract::FamilyDef>::Run>), )+
        }

        /// What a run of any family draws live (the family's `FamilyRun::Detail`).
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum AnyDetail {
            $( $variant(<$def as $crate::family::contract::FamilyDef>::Detail), )+
        }

        /// The report of a run of any family (the family's `FamilyRun::Report`). Its JSON (`to_json`) is the
        /// family's own report, as `bagsim run --out` writes it; across the worker boundary it carries its tag.
        #[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
        pub enum AnyReport {
            $( $variant(Box<<$def as $crate::family::contract::FamilyDef>::Report>), )+
        }

        impl AnyReport {
            /// The family's report as pretty JSON, without the family tag.
            pub fn to_json(&self) -> serde_json::Result<String> {
                match self { $( AnyReport::$variant(r) => serde_json::to_string_pretty(r), )+ }
            }

            /// Wall-clock seconds of the simulation.
            pub fn wall_time_s(&self) -> f64 {
                match self { $( AnyReport::$variant(r) => <$def>::wall_time_s(r), )+ }
            }

            /// Simulated time at the end of the run, s.
            pub fn end_time(&self) -> f64 {
                match self { $( AnyReport::$variant(r) => <$def>::end_time(r), )+ }
            }

            /// The report as the readable lines `bagsim run` prints after a run.
            pub fn summary(&self) -> Vec<String> {
                match self { $( AnyReport::$variant(r) => <$def>::summary(r), )+ }
            }

            /// The report's CSV row in a sweep (the columns of `Family::sweep_header`).
            pub fn sweep_row(&self) -> String {
                match self { $( AnyReport::$variant(r) => <$def>::sweep_row(r), )+ }
            }

            /// The report without what the page has already from the progress messages (time series, large
            /// tables): what the page is sent when a run ends, and what a sweep keeps of each run; an export asks
            /// the worker for the whole report.
            pub fn lean(self) -> AnyReport {
                match self { $( AnyReport::$variant(r) => AnyReport::$variant(Box::new(<$def>::lean(*r))), )+ }
            }

            /// The family's `lean` report as JSON, without the family tag: what a sweep keeps of each run.
            pub fn slim_json(self) -> serde_json::Value {
                match self.lean() { $( AnyReport::$variant(r) => serde_json::to_value(r), )+ }
                    .unwrap_or(serde_json::Value::Null)
            }
        }

        impl AnyRun {
            /// Validates the scenario, checks its budget (a run over it is refused before anything is generated or
            /// simulated) and builds its family's run, whose warnings then begin with the budget's (a long or large
            /// run) and the keys set to no effect. `imported` is a trace imported already under a name (the page's
            /// worker, which cannot read files), used when the scenario names it.
            pub fn build(
                s: &Scenario,
                imported: Option<(&str, &$crate::trace::Trace)>,
            ) -> Result<AnyRun, $crate::family::contract::ScenarioError> {
                match s { $( Scenario::$variant(s) => {
                    $crate::registry::build::<$def>(s, imported).map(|r| AnyRun::$variant(Box::new(r)))
                } )+ }
            }
        }

        impl $crate::family::contract::FamilyRun for AnyRun {
            type Detail = AnyDetail;
            type Report = AnyReport;

            fn step(&mut self, budget: $crate::family::contract::Budget) -> bool {
                match self { $( AnyRun::$variant(r) => r.step(budget), )+ }
            }

            fn header(&self) -> $crate::family::contract::Header {
                match self { $( AnyRun::$variant(r) => r.header(), )+ }
            }

            fn take_detail(&mut self) -> AnyDetail {
                match self { $( AnyRun::$variant(r) => AnyDetail::$variant(r.take_detail()), )+ }
            }

            fn report(&self, wall_s: f64) -> AnyReport {
                match self { $( AnyRun::$variant(r) => AnyReport::$variant(Box::new(r.report(wall_s))), )+ }
            }

            fn start(&self) -> $crate::family::contract::Start {
                match self { $( AnyRun::$variant(r) => r.start(), )+ }
            }

            fn warn(&mut self, warnings: Vec<String>) {
                match self { $( AnyRun::$variant(r) => r.warn(warnings), )+ }
            }

            #[allow(unreachable_patterns)]
            fn full_report(&self, report: AnyReport) -> AnyReport {
                match (self, report) {
                    $( (AnyRun::$variant(run), AnyReport::$variant(r)) => {
                        AnyReport::$variant(Box::new(run.full_report(*r)))
                    } )+
                    (_, r) => r,
                }
            }

            fn rows_csv(&self) -> Option<String> {
                match self { $( AnyRun::$variant(r) => r.rows_csv(), )+ }
            }

            fn failure(&self) -> Option<$crate::family::contract::ScenarioError> {
                match self { $( AnyRun::$variant(r) => r.failure(), )+ }
            }

            fn stream_jobs(&mut self, out: Box<dyn std::io::Write>) {
                match self { $( AnyRun::$variant(r) => r.stream_jobs(out), )+ }
            }

            fn end_jobs(&mut self) -> Option<std::io::Result<$crate::jobs::JobsEnd>> {
                match self { $( AnyRun::$variant(r) => r.end_jobs(), )+ }
            }

            fn record_tape(&mut self) -> bool {
                match self { $( AnyRun::$variant(r) => r.record_tape(), )+ }
            }

            fn take_tape(&mut self) -> Option<$crate::story::Tape> {
                match self { $( AnyRun::$variant(r) => r.take_tape(), )+ }
            }

            fn stream_swf(&mut self, out: Box<dyn std::io::Write>, what: &str) {
                match self { $( AnyRun::$variant(r) => r.stream_swf(out, what), )+ }
            }

            fn end_swf(&mut self) -> Option<std::io::Result<$crate::trace::schedule::SwfEnd>> {
                match self { $( AnyRun::$variant(r) => r.end_swf(), )+ }
            }
        }

        /// Runs a scenario of any family to the end and gives the report `bagsim run --out` writes; `clock`
        /// returns seconds.
        pub fn run_any_with_clock(
            s: &Scenario,
            clock: &dyn Fn() -> f64,
        ) -> Result<AnyReport, $crate::family::contract::ScenarioError> {
            use $crate::family::contract::FamilyRun;
            let mut run = AnyRun::build(s, None)?;
            let report = $crate::family::contract::run_to_report(&mut run, clock);
            match run.failure() {
                Some(e) => Err(e),
                None => Ok(run.full_report(report)),
            }
        }
    };
}
