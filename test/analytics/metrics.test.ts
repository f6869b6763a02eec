import assert from "node:assert/strict";
import { describe, test } from "node:test";
import {
  defaultRoles,
  metricsOf,
  type MetricGroup,
  type SpeakerSentiments,
} from "../../src/analytics/metrics.ts";
import type { Transcript } from "../../src/domain/transcript.ts";
import { conversation, endOf } from "./conversation-transcript.ts";

const ROLES = { agent: "Agent", caller: "Caller" };

/** Every metric as name → value, failing on a name that appears twice or a value that is not finite. */
function values(groups: MetricGroup[], groupName: string): Map<string, number> {
  const group = groups.find((candidate) => candidate.metricGroupName === groupName);
  assert.ok(group, `group ${groupName}`);
  const map = new Map<string, number>();
  for (const { metricName, metricValue } of group.metricValues) {
    assert.ok(!map.has(metricName), `${metricName} once`);
    assert.ok(Number.isFinite(metricValue), `${metricName} is a number: ${metricValue}`);
    map.set(metricName, metricValue);
  }
  return map;
}

function metric(
  transcript: Transcript,
  groupName: string,
  name: string,
  length?: number,
): number | undefined {
  return values(metricsOf(transcript, ROLES, undefined, length), groupName).get(name);
}

/** Turn-taking without anyone talking over anyone: each line ends before the other party's starts. */
const POLITE = conversation({
  Agent: [
    [0, "thank you for calling how can I help"], // 0 – 3.1 s
    [8000, "of course I can do that for you"], // 8 – 11.1 s
  ],
  Caller: [
    [3500, "I would like to cancel my account please"], // 3.5 – 6.6 s
  ],
});

/** The agent starts talking at 5 s while the caller is still talking, until 6.6 s. */
const INTERRUPTED = conversation({
  Agent: [
    [0, "thank you for calling how can I help"],
    [5000, "sorry let me stop you there"],
  ],
  Caller: [[3500, "I would like to cancel my account please"]],
});

describe("overtalk", () => {
  test("speech of both parties at once is an overtalk incident of the one who started second", () => {
    const overtalk = values(metricsOf(INTERRUPTED, ROLES), "overtalk");
    assert.equal(overtalk.get("overtalk-incidents"), 1);
    assert.equal(overtalk.get("agent-overtalk-incidents"), 1, "the agent talked over the caller");
    assert.equal(overtalk.get("caller-overtalk-incidents"), 0);
    // 1.6 s of overtalk in a call that ends at 7.3 s.
    const end = endOf(5000, "sorry let me stop you there");
    const overlap = endOf(3500, "I would like to cancel my account please") - 5000;
    assert.equal(overtalk.get("overtalk-ratio"), Math.round((overlap / end) * 100) / 100);
    assert.equal(overtalk.get("agent-overtalk-ratio"), overtalk.get("overtalk-ratio"));
    assert.equal(overtalk.get("caller-overtalk-ratio"), 0);
  });

  test("the caller talking over the agent counts for the caller", () => {
    const call = conversation({
      Agent: [[0, "our plans start at ten dollars a month and go up to fifty"]],
      Caller: [[2000, "I just want to cancel"]],
    });
    const overtalk = values(metricsOf(call, ROLES), "overtalk");
    assert.equal(overtalk.get("caller-overtalk-incidents"), 1);
    assert.equal(overtalk.get("agent-overtalk-incidents"), 0);
  });

  test("taking turns is not overtalk, nor is a handover that overlaps by a fraction of a second", () => {
    assert.equal(metric(POLITE, "overtalk", "overtalk-incidents"), 0);
    assert.equal(metric(POLITE, "overtalk", "overtalk-ratio"), 0);
    const quickReply = conversation({ Agent: [[0, "how can I help"]], Caller: [[1400, "cancel please"]] });
    assert.equal(metric(quickReply, "overtalk", "overtalk-incidents"), 0, "0.1 s of overlap");
  });

  test("each separate stretch of talking over is its own incident", () => {
    const call = conversation({
      Agent: [
        [0, "let me explain the terms of the contract"],
        [10000, "and the fee for ending it early is"],
      ],
      Caller: [
        [2000, "no no no"],
        [12000, "I do not care"],
      ],
    });
    assert.equal(metric(call, "overtalk", "overtalk-incidents"), 2);
    assert.equal(metric(call, "overtalk", "caller-overtalk-incidents"), 2);
  });
});

describe("talk time and rate", () => {
  test("talk ratios share the talking time between the parties", () => {
    const talk = values(metricsOf(POLITE, ROLES), "talk-time-and-rate");
    const agent = talk.get("agent-talk-ratio") ?? NaN;
    const caller = talk.get("caller-talk-ratio") ?? NaN;
    assert.ok(Math.abs(agent + caller - 1) <= 0.01, `${agent} + ${caller} is 1`);
    // The agent talked for 6.2 s, the caller for 3.1 s.
    assert.equal(agent, 0.67);
    assert.equal(caller, 0.33);
  });

  test("with overtalk the talk ratios sum to more than 1, by the overtalk", () => {
    const talk = values(metricsOf(INTERRUPTED, ROLES), "talk-time-and-rate");
    const sum = (talk.get("agent-talk-ratio") ?? 0) + (talk.get("caller-talk-ratio") ?? 0);
    assert.ok(sum > 1.1 && sum < 1.5, `sum ${sum}`);
  });

  test("silence is the time nobody talks; a pause over 4 s is a silence incident", () => {
    const call = conversation({
      Agent: [
        [0, "please hold"], // 0 – 0.7 s
        [6000, "thanks for holding"], // a 5.3 s silence before
      ],
      Caller: [[8200, "sure"]], // a 1 s pause before
    });
    const talk = values(metricsOf(call, ROLES), "talk-time-and-rate");
    assert.equal(talk.get("silence-incidents"), 1);
    // Talking: 0.7 + 1.1 + 0.3 s of 8.5 s.
    assert.equal(talk.get("silence-ratio"), Math.round((1 - 2100 / 8500) * 100) / 100);
    // Silence after the last word counts when the media's length says it is there.
    assert.equal(
      metric(call, "talk-time-and-rate", "silence-ratio", 21_000),
      Math.round((1 - 2100 / 21_000) * 100) / 100,
    );
  });

  test("the talk rate is words per minute of talking, alone", () => {
    const talk = values(metricsOf(POLITE, ROLES), "talk-time-and-rate");
    // Each party says 8 words in 3.1 s, again and again: 155 words a minute; the pauses between lines
    // do not slow them down.
    assert.equal(talk.get("agent-talk-rate"), 155);
    assert.equal(talk.get("caller-talk-rate"), 155);
    assert.equal(talk.get("agent-to-caller-talk-rate-ratio"), 1);
    // Talking over the caller does not change the agent's pace: those seconds and their words are left
    // out together (leaving out only the seconds would make it 221).
    const interrupting = metric(INTERRUPTED, "talk-time-and-rate", "agent-talk-rate") ?? NaN;
    assert.ok(Math.abs(interrupting - 155) <= 5, `${interrupting} words a minute`);
  });

  test("the change in talk rate compares the last third of the call with the first", () => {
    const steady = conversation({
      Agent: [
        [0, "one two three four five six seven eight"],
        [20000, "one two three four five six seven eight"],
      ],
      Caller: [[10000, "one two three four five"]],
    });
    const talk = values(metricsOf(steady, ROLES), "talk-time-and-rate");
    assert.equal(talk.get("agent-intra-call-change-in-talk-rate"), 1);
    assert.equal(
      talk.get("caller-intra-call-change-in-talk-rate"),
      0,
      "the caller said nothing at either end",
    );
  });

  test("a streak ends at a pause of 3 s; its length is in seconds", () => {
    const call = conversation({
      Agent: [
        [0, "one two three four five"], // 0 – 1.9 s
        [4000, "six seven"], // a 2.1 s pause: the same streak, to 4.7 s
        [9000, "eight"], // a 4.3 s pause: a new streak of 0.3 s
      ],
      Caller: [[20000, "yes"]],
    });
    const talk = values(metricsOf(call, ROLES), "talk-time-and-rate");
    assert.equal(talk.get("agent-longest-streak"), 4.7);
    assert.equal(talk.get("agent-average-streak"), 2.5);
    assert.equal(talk.get("agent-median-streak"), 2.5);
    assert.equal(talk.get("caller-longest-streak"), 0.3);
    assert.equal(talk.get("longest-streak"), 4.7);
    assert.equal(talk.get("median-streak"), 0.3, "of 4.7, 0.3 and 0.3");
    assert.equal(talk.get("average-streak"), 1.77);
  });
});

describe("sentiment", () => {
  const SENTIMENTS: SpeakerSentiments[] = [
    {
      speakerName: "agent",
      sentimentValues: [
        { s: 0, e: 3000, v: 0.8 },
        { s: 8000, e: 10000, v: 0.4 },
        { s: 20000, e: 22000, v: 0.6 },
      ],
    },
    {
      speakerName: "Caller",
      sentimentValues: [
        { s: 3500, e: 6000, v: 0.2 },
        { s: 11000, e: 14000, v: -0.5 },
        { s: 15000, e: 18000, v: -0.9 },
      ],
    },
  ];

  test("sentiments are averaged per party and for the call, start and end by thirds of the sentences", () => {
    const sentiment = values(metricsOf(POLITE, ROLES, SENTIMENTS), "sentiment");
    assert.equal(sentiment.get("agent-sentiment"), 0.6);
    assert.equal(sentiment.get("caller-sentiment"), -0.4);
    assert.equal(sentiment.get("call-sentiment"), 0.1);
    // Six sentences in time order: 0.8, 0.2 | 0.4, -0.5 | -0.9, 0.6.
    assert.equal(sentiment.get("start-sentiment"), 0.5);
    assert.equal(sentiment.get("end-sentiment"), -0.15);
    assert.equal(sentiment.get("caller-start-sentiment"), 0.2);
    assert.equal(sentiment.get("caller-end-sentiment"), -0.9);
  });

  test("a call that turns sour has a negative change in sentiment", () => {
    const sentiment = values(metricsOf(POLITE, ROLES, SENTIMENTS), "sentiment");
    assert.equal(sentiment.get("caller-intra-call-change-in-sentiment"), -1.1);
    assert.equal(sentiment.get("call-change-in-sentiment"), -0.65);
    assert.equal(sentiment.get("agent-intra-call-change-in-sentiment"), -0.2);
  });

  test("without sentiments there is no sentiment group", () => {
    const groups = metricsOf(POLITE, ROLES).map((group) => group.metricGroupName);
    assert.deepEqual(groups, ["overtalk", "talk-time-and-rate"]);
  });
});

describe("roles", () => {
  test("with both roles every metric of the guide's three groups is reported, named as the guide names it", () => {
    const groups = metricsOf(POLITE, ROLES, []);
    assert.deepEqual(
      groups.map((group) => [group.metricGroupName, group.metricValues.map((value) => value.metricName)]),
      [
        [
          "overtalk",
          [
            "overtalk-incidents",
            "agent-overtalk-incidents",
            "caller-overtalk-incidents",
            "overtalk-ratio",
            "agent-overtalk-ratio",
            "caller-overtalk-ratio",
          ],
        ],
        [
          "talk-time-and-rate",
          [
            "agent-talk-ratio",
            "caller-talk-ratio",
            "silence-ratio",
            "silence-incidents",
            "agent-talk-rate",
            "caller-talk-rate",
            "agent-to-caller-talk-rate-ratio",
            "agent-intra-call-change-in-talk-rate",
            "caller-intra-call-change-in-talk-rate",
            "agent-average-streak",
            "agent-longest-streak",
            "agent-median-streak",
            "average-streak",
            "caller-average-streak",
            "caller-longest-streak",
            "caller-median-streak",
            "longest-streak",
            "median-streak",
          ],
        ],
        [
          "sentiment",
          [
            "call-sentiment",
            "start-sentiment",
            "end-sentiment",
            "call-change-in-sentiment",
            "agent-sentiment",
            "agent-start-sentiment",
            "agent-end-sentiment",
            "agent-intra-call-change-in-sentiment",
            "caller-sentiment",
            "caller-start-sentiment",
            "caller-end-sentiment",
            "caller-intra-call-change-in-sentiment",
          ],
        ],
      ],
    );
  });

  test("without roles only the call-wide metrics are reported", () => {
    const names = metricsOf(INTERRUPTED, {}, []).flatMap((group) =>
      group.metricValues.map((value) => value.metricName),
    );
    assert.deepEqual(names, [
      "overtalk-incidents",
      "overtalk-ratio",
      "silence-ratio",
      "silence-incidents",
      "average-streak",
      "longest-streak",
      "median-streak",
      "call-sentiment",
      "start-sentiment",
      "end-sentiment",
      "call-change-in-sentiment",
    ]);
    assert.equal(values(metricsOf(INTERRUPTED, {}), "overtalk").get("overtalk-incidents"), 1);
  });

  test("roles match speaker names ignoring case", () => {
    const lower = metricsOf(INTERRUPTED, { agent: "AGENT", caller: "caller" });
    assert.deepEqual(lower, metricsOf(INTERRUPTED, ROLES));
  });

  test("defaultRoles follows the guide's speaker names, else first speaker agent and second caller", () => {
    assert.deepEqual(defaultRoles(["Customer", "Representative"]), {
      agent: "Representative",
      caller: "Customer",
    });
    assert.deepEqual(defaultRoles(["Customer", "Speaker 2"]), { agent: "Speaker 2", caller: "Customer" });
    assert.deepEqual(defaultRoles(["Left", "Right"]), { agent: "Left", caller: "Right" });
    assert.deepEqual(defaultRoles(["Speaker 1"]), {});
  });
});

describe("edge cases", () => {
  test("an empty transcript gives zeros, not NaN", () => {
    const groups = metricsOf(conversation({ Agent: [], Caller: [] }), ROLES, []);
    for (const group of groups)
      for (const { metricName, metricValue } of group.metricValues) assert.equal(metricValue, 0, metricName);
  });

  test("an empty transcript of media with a length is all silence", () => {
    assert.equal(metric(conversation({}), "talk-time-and-rate", "silence-ratio", 10_000), 1);
  });

  test("a one-speaker call has no overtalk and its speaker has all the talk", () => {
    const call = conversation({ Agent: [[0, "this is a recorded message about your account"]] });
    const groups = metricsOf(call, ROLES);
    assert.equal(values(groups, "overtalk").get("overtalk-incidents"), 0);
    const talk = values(groups, "talk-time-and-rate");
    assert.equal(talk.get("agent-talk-ratio"), 1);
    assert.equal(talk.get("caller-talk-ratio"), 0);
    assert.equal(talk.get("caller-talk-rate"), 0);
    assert.equal(talk.get("agent-to-caller-talk-rate-ratio"), 0, "no caller rate to compare with");
    assert.equal(talk.get("silence-ratio"), 0);
  });

  test("a transcript without voice activity takes talking times from its words", () => {
    const withActivity = conversation({ Agent: [[0, "hello there"]], Caller: [[500, "hi"]] });
    const without = { ...withActivity, voiceActivity: [] };
    assert.deepEqual(metricsOf(without, ROLES), metricsOf(withActivity, ROLES));
  });
});
