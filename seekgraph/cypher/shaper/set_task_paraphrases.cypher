// An LLM paraphrase of a task's template question, kept next to the template.
UNWIND $rows AS row
MATCH (t:Task {task_id: row.task_id})
SET t.question_template = coalesce(t.question_template, t.question), t.question = row.question,
    t.paraphrased_by = row.model
