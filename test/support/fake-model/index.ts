/** Public entry of the fake model server used by end-to-end tests. */
export { demoRules, echoStep, type Fallback } from "./rules.ts";
export { defaultProtocols, type FakeModelServer, type FakeModelServerOptions, startFakeModelServer } from "./server.ts";
export type {
	ErrorStep,
	HangStep,
	ProtocolName,
	RecordedRequest,
	RequestOutcome,
	RouteRule,
	ScriptedToolCall,
	Step,
	StepData,
	StepFunction,
	TextStep,
	ToolCallStep,
	Usage,
	WireProtocol,
} from "./types.ts";
