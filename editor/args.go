package editor

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/editord/editord/editor/wire"
	"github.com/editord/editord/shell"
)

// decodeArgs fills req from a function's JSON arguments (wire.DecodeArgs:
// unknown, missing and mistyped fields and text that is not UTF-8 are
// refused, naming the field) as invalid_argument.
func decodeArgs(args json.RawMessage, req any) error {
	err := wire.DecodeArgs(args, req)
	if ae := (*wire.ArgError)(nil); errors.As(err, &ae) {
		return &shell.Error{Code: shell.CodeInvalidArgument, Message: ae.Message, Err: ae.Err}
	}
	return err
}

// countArg applies the rules every "how many" field shares: negative is
// invalid, 0 (absent) is the configured default, above cap is cap.
func countArg(field string, v, def, cap int) (int, error) {
	switch {
	case v < 0:
		return 0, invalid("%s must be 1 or more, not %d", field, v)
	case v == 0:
		return def, nil
	case v > cap:
		return cap, nil
	}
	return v, nil
}

// ErrArgsNotJSON is wrapped by the refusal of arguments that are not JSON
// at all (rather than JSON of the wrong shape): a caller that delimited
// them without parsing (the stdio fast path) answers those as a parse
// error, as for any line that is not JSON.
var ErrArgsNotJSON = wire.ErrNotJSON

func invalid(format string, args ...any) error {
	return &shell.Error{Code: shell.CodeInvalidArgument, Message: fmt.Sprintf(format, args...)}
}
