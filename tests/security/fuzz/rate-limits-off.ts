// Imported first by the fuzz entry points, before any module of the server is evaluated, in case the limiter reads
// RATE_LIMITS when its module loads. Rate limits are tested by their own suite (429s, headers, @discordjs/rest
// waiting); left on here, the fuzz would mostly measure the limiter, answering 429 to most generated requests.
process.env.RATE_LIMITS = "off";
