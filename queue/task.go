package queue

import (
	"encoding/json"
	"fmt"
	"strconv"

	"github.com/google/uuid"
	"github.com/hibiken/asynq"
)

// TaskType is the asynq task type of one chunk of a matrix job.
const TaskType = "tdm:chunk"

// ChunkTask is the payload of a chunk task.
type ChunkTask struct {
	// Job is the job's uuid.
	Job string `json:"job"`
	// Chunk is the chunk index, 0-based.
	Chunk int `json:"chunk"`
}

// TaskID returns the asynq task id of chunk i of job id.
func TaskID(id string, i int) string { return id + ":" + strconv.Itoa(i) }

// NewChunkTask returns the asynq task for chunk i of job id.
func NewChunkTask(id string, i int) *asynq.Task {
	b, _ := json.Marshal(ChunkTask{Job: id, Chunk: i}) // cannot fail
	return asynq.NewTask(TaskType, b)
}

// ParseChunkTask decodes and checks a chunk task's payload.
func ParseChunkTask(t *asynq.Task) (ChunkTask, error) {
	var c ChunkTask
	if t.Type() != TaskType {
		return c, fmt.Errorf("queue: task type %q is not %q", t.Type(), TaskType)
	}
	if err := json.Unmarshal(t.Payload(), &c); err != nil {
		return c, fmt.Errorf("queue: chunk task payload: %w", err)
	}
	if err := uuid.Validate(c.Job); err != nil || c.Chunk < 0 {
		return c, fmt.Errorf("queue: chunk task payload %q: bad job id or chunk", t.Payload())
	}
	return c, nil
}
