-- The consumer's view of tracing (issue 18): for each applied event, the W3C traceparent the message carried
-- (NULL when the event was written outside a trace) and the trace id of the consumer's own span (NULL when the
-- server runs without OpenTelemetry). When both are set, the two trace ids are the same: one trace from the
-- HTTP request that wrote the event to the consumer that applied it.
ALTER TABLE order_projection_events ADD COLUMN received_traceparent VARCHAR(256);
ALTER TABLE order_projection_events ADD COLUMN consumer_trace_id VARCHAR(32);
