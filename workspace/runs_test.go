package workspace

import (
	"testing"
)

func TestJobsRecord(t *testing.T) {
	s, err := OpenStore(t.TempDir(), func(m string) { t.Log(m) })
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	a := &Job{ID: "run-a", By: "agent#1", Argv: []string{"go", "test"}, State: "running", StartedMS: 1}
	releaseA, err := s.StartJob(a)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := s.StartJob(a); err == nil {
		t.Fatal("a job started twice")
	}
	b := &Job{ID: "run-b", State: "running", StartedMS: 2}
	releaseB, err := s.StartJob(b)
	if err != nil {
		t.Fatal(err)
	}
	if j, err := s.ReadJob("run-a"); err != nil || j.State != "running" || j.By != "agent#1" {
		t.Fatalf("%+v %v", j, err)
	}
	// Its owner gone without recording the end: lost.
	releaseA()
	if j, _ := s.ReadJob("run-a"); j.State != "lost" {
		t.Fatalf("state %s, want lost", j.State)
	}
	code := 0
	b.State, b.ExitCode, b.EndedMS = "exited", &code, 3
	if err := s.WriteJob(b); err != nil {
		t.Fatal(err)
	}
	releaseB()
	jobs := s.Jobs()
	if len(jobs) != 2 || jobs[0].ID != "run-a" || jobs[1].State != "exited" {
		t.Fatalf("jobs %+v", jobs)
	}
	s.SweepJobs(1)
	if jobs := s.Jobs(); len(jobs) != 1 || jobs[0].ID != "run-b" {
		t.Fatalf("after sweeping to 1: %+v", jobs)
	}
	for _, id := range []string{"", "../x", "run-A", "a/b"} {
		if _, err := s.ReadJob(id); err == nil {
			t.Errorf("ReadJob(%q) found something", id)
		}
	}
}
