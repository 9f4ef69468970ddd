package editor

import (
	"fmt"
	"strings"
	"sync"
)

// renamePlans keeps the last dry runs of editor::rename, for their apply
// (rename.go). A plan is good only while the journal's last seq and the
// root's drafts are what they were when it was made.
type renamePlans struct {
	mu    sync.Mutex
	plans []cachedPlan // newest last
}

type cachedPlan struct {
	key, drafts string
	seq         int64
	plan        *renamePlan
}

// renamePlansKept bounds the dry runs kept.
const renamePlansKept = 8

func (c *renamePlans) put(key string, seq int64, drafts string, p *renamePlan) {
	if key == "" {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.drop(key)
	c.plans = append(c.plans, cachedPlan{key, drafts, seq, p})
	if len(c.plans) > renamePlansKept {
		c.plans = c.plans[1:]
	}
}

// take removes and returns the plan of key if it is still good.
func (c *renamePlans) take(key string, seq int64, drafts string) *renamePlan {
	if key == "" {
		return nil
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, p := range c.plans {
		if p.key == key {
			c.drop(key)
			if p.seq == seq && p.drafts == drafts {
				return p.plan
			}
			return nil
		}
	}
	return nil
}

func (c *renamePlans) drop(key string) {
	for i, p := range c.plans {
		if p.key == key {
			c.plans = append(c.plans[:i], c.plans[i+1:]...)
			return
		}
	}
}

// renameKey names a rename request for the plans kept, with the journal's
// last seq and the root's drafts now; key is "" when they cannot be read.
func (s *Service) renameKey(req *RenameRequest) (key string, seq int64, drafts string) {
	root, l, err := s.target(req.Path, "path")
	if err != nil {
		return "", 0, ""
	}
	if seq, err = s.store.LastSeq(); err != nil {
		return "", 0, ""
	}
	var b strings.Builder
	if ses := s.store.Load().Sessions[root]; ses != nil {
		for _, buf := range ses.Buffers {
			if !buf.Dirty {
				continue
			}
			d, err := s.store.ReadDraft(root, buf.Path)
			if err != nil {
				return "", 0, ""
			}
			if d != nil {
				fmt.Fprintf(&b, "%s\x00%s\x00%s\x00%s\n", buf.Path, d.Base, d.Time, Version([]byte(d.Content)))
			}
		}
	}
	return fmt.Sprintf("%s\x00%s\x00%d:%d\x00%s", root, l.stored, req.Line, req.Column, req.NewName), seq, b.String()
}
