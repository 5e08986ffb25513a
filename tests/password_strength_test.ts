import assert from "node:assert/strict";
import { guessablePasswordProblem } from "../lib/password_strength.ts";
import { generatePassword } from "../lib/passwords.ts";
import { addUser, pageText, PanelAgent, PASSWORD, signedInApp } from "./support/panel_helpers.ts";
import { makeTestApp } from "./support/helpers.ts";

/** The last, "letmein2024!", scores 2 (about 10^7 guesses): one below the minimum of 3. */
const GUESSABLE = [
  "password1234",
  "123456789012",
  "qwertyuiop12",
  "passwordpassword",
  "letmein2024!",
];
const PERSON = { email: "ada@acme.test", name: "Ada Lovelace" };

Deno.test("[password strength] guessable passwords are refused with zxcvbn's advice", async () => {
  for (const password of GUESSABLE) {
    const problem = (await guessablePasswordProblem(password, PERSON)) ?? "";
    assert.ok(problem.startsWith("This password is too easy to guess. "), password);
    assert.ok(
      problem.endsWith(
        "Four or five unrelated words, or a password manager's random one, are hard to guess.",
      ),
    );
  }
  assert.equal(
    await guessablePasswordProblem("password1234", PERSON),
    "This password is too easy to guess. This is similar to a commonly used password. " +
      "Add more words that are less common. " +
      "Four or five unrelated words, or a password manager's random one, are hard to guess.",
  );
  // The person's own words count as guessable.
  assert.match(
    (await guessablePasswordProblem("ada@acme.test!!", PERSON)) ?? "",
    /There should not be any personal or page related data\./,
  );
  assert.equal(await guessablePasswordProblem("ada@acme.test!!", { email: "x@y.test" }), null);
  assert.equal(await guessablePasswordProblem("violet harbour tractor ninety", PERSON), null);
  assert.equal(await guessablePasswordProblem(PASSWORD, PERSON), null);
  // One-time passwords of new users and the demo owner are strong.
  for (let i = 0; i < 20; i++) {
    assert.equal(await guessablePasswordProblem(generatePassword(), PERSON), null);
  }
});

Deno.test("[password strength] every form that chooses a password refuses a guessable one", async (t) => {
  await t.step("changing it on the account page", async () => {
    const { t: app, agent, email } = await signedInApp();
    try {
      for (const password of GUESSABLE) {
        const response = await agent.post("/panel/password", {
          current: PASSWORD,
          password,
          confirm: password,
        });
        assert.equal(response.status, 400, password);
        assert.match(pageText(await response.text()), /This password is too easy to guess\./);
      }
      const good = "violet harbour tractor ninety";
      const changed = await agent.post("/panel/password", {
        current: PASSWORD,
        password: good,
        confirm: good,
      });
      assert.equal(changed.status, 303);
      await new PanelAgent(app).signIn(email, good);
    } finally {
      await app.close();
    }
  });

  await t.step("at the first sign-in with a one-time password", async () => {
    const app = await makeTestApp();
    try {
      const user = await addUser(app, {
        email: "new@acme.test",
        role: "MEMBER",
        keepOneTime: true,
      });
      const agent = new PanelAgent(app);
      await agent.signIn(user.email, user.password);
      const weak = await agent.post("/panel/password", {
        password: "qwertyuiop12",
        confirm: "qwertyuiop12",
      });
      assert.equal(weak.status, 400);
      assert.match(
        pageText(await weak.text()),
        /This password is too easy to guess\. This is similar to a commonly used password\./,
      );
      const good = "orchid tunnel pepper galaxy";
      const chosen = await agent.post("/panel/password", { password: good, confirm: good });
      assert.equal(chosen.status, 303);
      assert.equal(chosen.headers.get("location"), "/panel?notice=welcome");
    } finally {
      await app.close();
    }
  });
});

Deno.test("[password strength] Polish words count as guessable, and the advice is in the reader's language", async () => {
  // Each scores 4 with the English dictionaries alone: only the Polish ones know these words.
  for (const password of ["rzeczpospolita", "niespodzianka1", "gospodarstwo1", "małgorzata1984"]) {
    assert.ok(await guessablePasswordProblem(password, PERSON), password);
  }
  assert.equal(
    await guessablePasswordProblem("password1234", PERSON, "pl"),
    "To hasło jest zbyt łatwe do odgadnięcia. To jest podobne do często używanego hasła. " +
      "Dodaj więcej słów, które są mniej popularne. Trudne do odgadnięcia są cztery lub pięć " +
      "niezwiązanych ze sobą słów albo losowe hasło z menedżera haseł.",
  );
  assert.equal(await guessablePasswordProblem("violet harbour tractor ninety", PERSON, "pl"), null);
});

Deno.test("[password strength] the account page gives zxcvbn's advice in the panel's language", async () => {
  const { t: app, agent } = await signedInApp();
  try {
    const response = await agent.post("/panel/password", {
      current: PASSWORD,
      password: "rzeczpospolita",
      confirm: "rzeczpospolita",
    }, { headers: { "accept-language": "pl-PL,pl;q=0.9,en;q=0.5" } });
    assert.equal(response.status, 400);
    const page = await response.text();
    assert.match(page, /<html lang="pl">/);
    assert.match(pageText(page), /To hasło jest zbyt łatwe do odgadnięcia\. /);
  } finally {
    await app.close();
  }
});
