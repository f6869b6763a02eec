/**
 * The dialogues `bench/punctuation.ts` speaks and scores, with their reference punctuation. Each string is
 * one turn. TUNING is what the punctuator's rules and thresholds were tuned on; HELD_OUT was written at the
 * same time and never looked at while tuning, so its figures say how the rules do on sentences they were
 * not fitted to. Words only (no digits), as a call is spoken.
 */

export const TUNING: string[][] = [
  [
    "Thank you for calling customer support. My name is John. How can I help you today?",
    "Hi, I am calling about my internet service. It has been very slow for the last two weeks.",
    "I am sorry to hear that. Can you give me your phone number?",
    "Sure, it is five five five, one two three, four five six seven.",
    "Thank you. I can see there was an outage in your area last week.",
    "That explains it, but the problem is still there this morning.",
  ],
  [
    "Good morning, this is the billing department. What can I do for you?",
    "I was charged twice for the same order. Why did that happen?",
    "Let me check your account. Do you have the order number?",
    "Yes, it is on the receipt. Should I read it to you?",
    "Please do. I will also need your name, your address and your email.",
    "My name is Anna Smith, and I live on Main Street.",
  ],
  [
    "Is this a good time to talk about your renewal?",
    "Yes, I have a few minutes. What are the options?",
    "You can keep the basic plan, move to the family plan or cancel.",
    "How much is the family plan per month?",
    "It costs forty dollars a month, and it includes four phones.",
    "That sounds reasonable. Can I switch today?",
  ],
  [
    "Where did you send the package?",
    "We sent it to your home address on Monday.",
    "I never received it. Could you check the tracking number?",
    "Of course. The package is at the local post office.",
    "Okay, when can I pick it up?",
    "You can pick it up tomorrow morning after nine.",
  ],
];

export const HELD_OUT: string[][] = [
  [
    "Good afternoon, you are speaking with Maria. How may I help you?",
    "Hello, my card was blocked this morning. Can you unblock it?",
    "I can help with that. What is your date of birth?",
    "It is the third of May, nineteen eighty five.",
    "Thank you. The card is active again, and you can use it right away.",
    "That is great news. Do I need a new pin?",
  ],
  [
    "Are you calling about the job opening?",
    "Yes, I saw the advertisement on your website.",
    "Have you worked in a warehouse before?",
    "I worked in a warehouse for three years, and I drove a forklift.",
    "That is useful. When could you start?",
    "I could start next month, or sooner if you need me.",
  ],
  [
    "How is the weather in your city today?",
    "It is cold, windy and wet, as usual in November.",
    "Will the storm reach the coast tonight?",
    "The forecast says it will arrive after midnight.",
    "Should we close the office early?",
    "I think we should. Tell everyone to go home at three.",
  ],
];
