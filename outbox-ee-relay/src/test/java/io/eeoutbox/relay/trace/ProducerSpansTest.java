package io.eeoutbox.relay.trace;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.eeoutbox.OutboxMessage;
import io.eeoutbox.TraceContext;
import io.eeoutbox.spi.PublishResult;
import io.eeoutbox.spi.Publisher;
import io.opentelemetry.api.trace.SpanKind;
import io.opentelemetry.api.trace.StatusCode;
import io.opentelemetry.context.Context;
import io.opentelemetry.sdk.common.CompletableResultCode;
import io.opentelemetry.sdk.trace.ReadWriteSpan;
import io.opentelemetry.sdk.trace.ReadableSpan;
import io.opentelemetry.sdk.trace.SdkTracerProvider;
import io.opentelemetry.sdk.trace.SpanProcessor;
import io.opentelemetry.sdk.trace.data.SpanData;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The relay's producer spans with the OpenTelemetry SDK: parent, what the message then carries, failures. */
class ProducerSpansTest {

    private static final String WRITER = "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01";

    private final List<SpanData> ended = new CopyOnWriteArrayList<>();
    private final SdkTracerProvider provider = SdkTracerProvider.builder().addSpanProcessor(new SpanProcessor() {
        @Override
        public void onStart(Context parentContext, ReadWriteSpan span) {
        }

        @Override
        public boolean isStartRequired() {
            return false;
        }

        @Override
        public void onEnd(ReadableSpan span) {
            ended.add(span.toSpanData());
        }

        @Override
        public boolean isEndRequired() {
            return true;
        }

        @Override
        public CompletableResultCode shutdown() {
            return CompletableResultCode.ofSuccess();
        }
    }).build();

    @AfterEach
    void close() {
        provider.close();
    }

    private static OutboxMessage message(String aggregateId, TraceContext trace) {
        return new OutboxMessage(UUID.randomUUID(), 1, "order.created", "{}", new OutboxMessage.Aggregate("order",
                aggregateId), new OutboxMessage.Delivery(Instant.EPOCH, 1, trace));
    }

    @Test
    void aTracedMessageIsSentInAProducerSpanChildOfTheWriterAndCarriesThatSpan() {
        List<OutboxMessage> sent = new ArrayList<>();
        OutboxMessage traced = message("o-1", new TraceContext(WRITER, "congo=t61rcWkgMzE"));
        OutboxMessage untraced = message("o-2", null);
        OutboxMessage refused = message("o-3", TraceContext.of(WRITER));
        Publisher broker = new Publisher() {
            @Override
            public void publish(OutboxMessage message) {
                sent.add(message);
            }

            @Override
            public PublishResult publishAll(List<OutboxMessage> batch) {
                sent.addAll(batch);
                return PublishResult.of(Map.of(refused.id(), new IllegalStateException("too large")));
            }
        };

        PublishResult result = new OpenTelemetryPublishSpans.Traced(broker, provider.get("test"))
                .publishAll(List.of(traced, untraced, refused));

        assertThat(result.isFailed(refused.id())).isTrue();
        assertThat(ended).hasSize(2).allSatisfy(span -> {
            assertThat(span.getKind()).isEqualTo(SpanKind.PRODUCER);
            assertThat(span.getTraceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
            assertThat(span.getParentSpanId()).isEqualTo("b7ad6b7169203331");
        });
        SpanData ok = ended.stream().filter(s -> s.getStatus().getStatusCode() != StatusCode.ERROR).findFirst().orElseThrow();
        SpanData failed = ended.stream().filter(s -> s.getStatus().getStatusCode() == StatusCode.ERROR).findFirst()
                .orElseThrow();
        assertThat(failed.getAttributes().asMap().values()).contains(refused.id().toString());

        OutboxMessage sentTraced = sent.get(0);
        assertThat(sentTraced.id()).isEqualTo(traced.id());
        assertThat(sentTraced.trace().traceId()).isEqualTo("0af7651916cd43dd8448eb211c80319c");
        assertThat(sentTraced.trace().parentId()).isEqualTo(ok.getSpanId()).isNotEqualTo("b7ad6b7169203331");
        assertThat(sentTraced.trace().tracestate()).isEqualTo("congo=t61rcWkgMzE");
        assertThat(sent.get(1)).isSameAs(untraced);
        assertThat(sent.get(1).trace()).isNull();
    }

    @Test
    void aSingleSendThatFailsEndsItsSpanAsAnError() {
        Publisher broker = message -> {
            throw new IllegalStateException("refused");
        };
        Publisher traced = new OpenTelemetryPublishSpans.Traced(broker, provider.get("test"));
        assertThatThrownBy(() -> traced.publish(message("o-4", TraceContext.of(WRITER)))).hasMessage("refused");
        assertThat(ended).singleElement().satisfies(span -> assertThat(span.getStatus().getStatusCode())
                .isEqualTo(StatusCode.ERROR));
    }
}
