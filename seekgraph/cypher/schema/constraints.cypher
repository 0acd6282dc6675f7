// One key per artifact: every node seekgraph writes has a stable, unique id.
// Applied by `seekgraph db init` (and by stages that need them); IF NOT EXISTS keeps it idempotent.
// Sources
CREATE CONSTRAINT source_name IF NOT EXISTS FOR (n:Source) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT table_id IF NOT EXISTS FOR (n:Table) REQUIRE n.table_id IS UNIQUE;
CREATE CONSTRAINT table_version_id IF NOT EXISTS FOR (n:TableVersion) REQUIRE n.version_id IS UNIQUE;
CREATE CONSTRAINT column_id IF NOT EXISTS FOR (n:Column) REQUIRE n.column_id IS UNIQUE;
CREATE CONSTRAINT row_id IF NOT EXISTS FOR (n:Row) REQUIRE n.row_id IS UNIQUE;
CREATE CONSTRAINT entity_id IF NOT EXISTS FOR (n:Entity) REQUIRE n.entity_id IS UNIQUE;
CREATE CONSTRAINT value_id IF NOT EXISTS FOR (n:Value) REQUIRE n.value_id IS UNIQUE;
CREATE CONSTRAINT page_id IF NOT EXISTS FOR (n:Page) REQUIRE n.page_id IS UNIQUE;
CREATE CONSTRAINT relation_name IF NOT EXISTS FOR (n:Relation) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT header_key IF NOT EXISTS FOR (n:Header) REQUIRE n.key IS UNIQUE;
// WebLeaper
CREATE CONSTRAINT tree_id IF NOT EXISTS FOR (n:Tree) REQUIRE n.tree_id IS UNIQUE;
CREATE CONSTRAINT biclique_id IF NOT EXISTS FOR (n:Biclique) REQUIRE n.biclique_id IS UNIQUE;
CREATE CONSTRAINT topic_group_id IF NOT EXISTS FOR (n:TopicGroup) REQUIRE n.group_id IS UNIQUE;
CREATE CONSTRAINT topic_grouping_digest IF NOT EXISTS FOR (n:TopicGrouping) REQUIRE n.digest IS UNIQUE;
CREATE CONSTRAINT task_id IF NOT EXISTS FOR (n:Task) REQUIRE n.task_id IS UNIQUE;
// WebShaper
CREATE CONSTRAINT variable_id IF NOT EXISTS FOR (n:Variable) REQUIRE n.variable_id IS UNIQUE;
CREATE CONSTRAINT constant_id IF NOT EXISTS FOR (n:Constant) REQUIRE n.constant_id IS UNIQUE;
CREATE CONSTRAINT triple_id IF NOT EXISTS FOR (n:Triple) REQUIRE n.triple_id IS UNIQUE;
// Agent
CREATE CONSTRAINT rollout_id IF NOT EXISTS FOR (n:Rollout) REQUIRE n.rollout_id IS UNIQUE;
CREATE CONSTRAINT step_id IF NOT EXISTS FOR (n:Step) REQUIRE n.step_id IS UNIQUE;
CREATE CONSTRAINT tool_call_hash IF NOT EXISTS FOR (n:ToolCall) REQUIRE n.request_hash IS UNIQUE;
// WebClipper
CREATE CONSTRAINT state_graph_id IF NOT EXISTS FOR (n:StateGraph) REQUIRE n.graph_id IS UNIQUE;
CREATE CONSTRAINT action_id IF NOT EXISTS FOR (n:Action) REQUIRE n.action_id IS UNIQUE;
CREATE CONSTRAINT information_id IF NOT EXISTS FOR (n:Information) REQUIRE n.info_id IS UNIQUE;
// Training
CREATE CONSTRAINT dataset_id IF NOT EXISTS FOR (n:Dataset) REQUIRE n.dataset_id IS UNIQUE;
CREATE CONSTRAINT training_run_id IF NOT EXISTS FOR (n:TrainingRun) REQUIRE n.run_id IS UNIQUE;
CREATE CONSTRAINT evaluation_id IF NOT EXISTS FOR (n:Evaluation) REQUIRE n.eval_id IS UNIQUE;
CREATE CONSTRAINT experiment_id IF NOT EXISTS FOR (n:Experiment) REQUIRE n.experiment_id IS UNIQUE;
// Bookkeeping
CREATE CONSTRAINT stage_run_id IF NOT EXISTS FOR (n:StageRun) REQUIRE n.run_id IS UNIQUE;
CREATE CONSTRAINT rejection_id IF NOT EXISTS FOR (n:Rejection) REQUIRE n.rejection_id IS UNIQUE;
CREATE CONSTRAINT lease_key IF NOT EXISTS FOR (n:Lease) REQUIRE n.key IS UNIQUE;
CREATE CONSTRAINT run_lock_name IF NOT EXISTS FOR (n:RunLock) REQUIRE n.name IS UNIQUE;
CREATE CONSTRAINT schema_version_name IF NOT EXISTS FOR (n:SchemaVersion) REQUIRE n.name IS UNIQUE;
