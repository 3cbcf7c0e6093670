/* The championship form, as the chosen profile and format make it read.
 *
 * Progressive enhancement only: the server reads and checks every field.
 * - Each rule's "as the profile says" choice names the value of the profile
 *   chosen now (the server puts every profile's words in data-by-profile).
 * - Fields that only one bracket format reads (data-formats) show only for
 *   that format. */

const form = document.querySelector("form[data-championship-form]");
if (form) {
  const profile = form.querySelector("select[name=ruleset_profile]");
  const format = form.querySelector("select[name=bracket_format]");

  const nameProfileValues = () => {
    form.querySelectorAll("select[data-by-profile]").forEach((select) => {
      const words = JSON.parse(select.dataset.byProfile)[profile.value];
      if (words) select.options[0].textContent = words;
    });
  };

  const showFormatFields = () => {
    form.querySelectorAll("[data-formats]").forEach((field) => {
      const wrapper = field.closest(".mb-3, .form-check") || field;
      wrapper.hidden = !field.dataset.formats.split(" ").includes(format.value);
    });
  };

  profile.addEventListener("change", nameProfileValues);
  format.addEventListener("change", showFormatFields);
  showFormatFields();
}
