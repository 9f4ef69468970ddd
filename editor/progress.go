package editor

import "context"

// Progress reports how far a long call has got: done of total (total 0
// when unknown) and a short message. The MCP layer turns it into
// notifications/progress when the caller sent a progressToken; elsewhere
// it is a no-op. Any function may report through ProgressFrom(ctx).
type Progress func(done, total float64, message string)

type progressKey struct{}

// WithProgress gives calls under ctx a progress reporter.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// ProgressFrom is the reporter of ctx; it never returns nil.
func ProgressFrom(ctx context.Context) Progress {
	if p, ok := ctx.Value(progressKey{}).(Progress); ok && p != nil {
		return p
	}
	return func(float64, float64, string) {}
}
