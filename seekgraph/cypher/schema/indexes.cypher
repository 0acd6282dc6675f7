// Lookup indexes on the properties stages filter by (keys above already have one).
CREATE INDEX table_status IF NOT EXISTS FOR (n:Table) ON (n.status);
CREATE INDEX table_source_name IF NOT EXISTS FOR (n:Table) ON (n.source_name);
CREATE INDEX entity_name IF NOT EXISTS FOR (n:Entity) ON (n.name);
CREATE INDEX value_normalized IF NOT EXISTS FOR (n:Value) ON (n.kind, n.normalized);
CREATE INDEX task_variant IF NOT EXISTS FOR (n:Task) ON (n.variant);
CREATE INDEX task_status IF NOT EXISTS FOR (n:Task) ON (n.status);
CREATE INDEX rollout_task IF NOT EXISTS FOR (n:Rollout) ON (n.task_id);
CREATE INDEX rollout_status IF NOT EXISTS FOR (n:Rollout) ON (n.status);
CREATE INDEX rollout_model IF NOT EXISTS FOR (n:Rollout) ON (n.model);
CREATE INDEX rejection_stage IF NOT EXISTS FOR (n:Rejection) ON (n.stage);
CREATE INDEX stage_run_stage IF NOT EXISTS FOR (n:StageRun) ON (n.stage);
CREATE INDEX fact_relation IF NOT EXISTS FOR ()-[r:FACT]-() ON (r.relation);
CREATE INDEX fact_table IF NOT EXISTS FOR ()-[r:FACT]-() ON (r.table_id);
CREATE INDEX task_question IF NOT EXISTS FOR (n:Task) ON (n.question);
