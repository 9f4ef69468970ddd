package protocol

import "github.com/editord/editord/editor/wire"

// The JSON protocol reads and writes by hand comes from editor/wire, where
// each fast path is proven equal to encoding/json; these are the names
// protocol's files call it by.
var (
	marshalJSON      = wire.Marshal
	appendJSONString = wire.AppendString
	objectMembers    = wire.ObjectMembers
	objectMembersEnd = wire.ObjectMembersEnd
	numbersFit       = wire.NumbersFit
)
